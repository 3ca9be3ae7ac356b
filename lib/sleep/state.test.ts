import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EvidenceLog, readEvidence } from "./evidence";
import { SleepState, TASK_ARCHIVE_CAP } from "./state";
import { removeTempDirs, tempDir } from "./test-helpers";
import { makeTask } from "./types";

afterAll(removeTempDirs);

describe("state.json", () => {
  it("starts fresh, saves atomically in snake_case, and reads back; project paths stay as keys", () => {
    const dir = tempDir();
    const s = SleepState.load(dir);
    expect(s.beginNight()).toBe(1);
    s.setLastHarvest("/home/me/my_project", "2024-05-01T03:17:00");
    s.recordNight({ night: 1, accepted: true, baseline: 0.2, candidate: 0.6, nTasks: 3, staging: "/x" });
    s.addToArchive([makeTask({ id: "t", intent: "i" })]);
    s.setLastModelKey("mock::mock");
    s.save();
    expect(readdirSync(dir)).toEqual(["state.json"]);
    const raw = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
    expect(raw).toMatchObject({
      version: 1,
      night: 1,
      last_harvest: { "/home/me/my_project": "2024-05-01T03:17:00" },
      history: [{ n_tasks: 3 }],
      last_model_key_format: 2,
    });
    expect(raw.task_archive[0]).toMatchObject({ id: "t", context_excerpt: "", source_sessions: [] });
    const again = SleepState.load(dir);
    expect(again.lastHarvestFor("/home/me/my_project")).toBe("2024-05-01T03:17:00");
    expect(again.taskArchive()[0]).toMatchObject({ id: "t", contextExcerpt: "" });
  });

  it("caps the task archive and only compares resolved model keys", () => {
    const s = SleepState.load(tempDir());
    s.addToArchive(Array.from({ length: TASK_ARCHIVE_CAP + 5 }, (_, i) => makeTask({ id: `t${i}`, intent: "i" })));
    expect(s.taskArchive()).toHaveLength(TASK_ARCHIVE_CAP);
    expect(s.taskArchive()[0]!.id).toBe("t5");
    s.data.lastModelKey = "configured:openai";
    expect(s.modelChangeWarning("openai::gpt")).toBeNull();
    s.setLastModelKey("openai::gpt");
    expect(s.modelChangeWarning("openai::gpt")).toBeNull();
    expect(s.modelChangeWarning("anthropic::claude")).toMatch(/model changed since last night/);
  });

  it("a corrupt state file is an error naming it", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "state.json"), "{oops");
    expect(() => SleepState.load(dir)).toThrow(`${join(dir, "state.json")}: not valid JSON`);
  });
});

describe("evidence.jsonl", () => {
  it("appends numbered events; every string is redacted before it is truncated", () => {
    const path = join(tempDir(), "night", "evidence.jsonl");
    const ev = new EvidenceLog(path, { maxChars: 200, redact: true, now: () => Date.UTC(2024, 4, 1) });
    const pem = `-----BEGIN PRIVATE KEY-----\n${"A".repeat(300)}\n-----END PRIVATE KEY-----`;
    ev.log("replay", "result", {
      taskId: "t",
      response: pem,
      nested: { note: "key sk-abcdefghijklmnop1234" },
      score: Number.NaN,
    });
    ev.log("cycle", "end", { long: "x".repeat(250) });
    const events = readEvidence(path);
    expect(events[0]).toMatchObject({
      seq: 1,
      stage: "replay",
      event: "result",
      task_id: "t",
      response: "[REDACTED_PRIVATE_KEY]",
      nested: { note: "key [REDACTED_OPENAI_KEY]" },
      score: null,
    });
    expect(events[1]).toMatchObject({ seq: 2, long: `${"x".repeat(200)}…[truncated 50 chars]` });
    writeFileSync(path, `${readFileSync(path, "utf8")}{"torn`);
    expect(readEvidence(path)).toHaveLength(2);
  });
});
