import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nightDetail } from "../../app/api/sleep/_lib/views";
import type { Db } from "../../lib/db/client";
import { createNightRecorder, getNight } from "../../lib/db/sleep-nights";
import { runHandoffNight } from "../../lib/sleep";
import { stateDirOf } from "../../lib/sleep/config";
import { digest, removeTempDirs, sandbox, testConfig, writeText } from "../../lib/sleep/test-helpers";
import { PROVIDERS, freshDb, useAsDefaultDb } from "../helpers/db";

afterAll(removeTempDirs);

const RULE = "Wrap every final answer in <answer> tags.";

/** The person answering the prompts: a miner, an optimizer proposing the rule, a target following it. */
function answer(prompt: string): string {
  if (prompt.includes("# Session"))
    return JSON.stringify([
      { intent: "Reusable: summarise the failing tests", checks: [{ op: "contains", arg: "<answer>" }] },
    ]);
  if (prompt.includes("# Recurring failures"))
    return JSON.stringify([{ op: "add", content: RULE, rationale: "answers lacked tags" }]);
  return prompt.includes(RULE) ? "<answer>done</answer>" : "done";
}

describe.each(PROVIDERS)("a handoff night in the database (%s)", (provider) => {
  let db: Db;
  beforeAll(async () => {
    db = (await freshDb(provider)).db;
    useAsDefaultDb(db); // the night view reads gate rows through the default client
  });
  afterAll(async () => db?.$disconnect());

  it("is recorded as waiting for answers from its first round, with its folder, and its last round completes that row", async () => {
    const s = sandbox();
    const cfg = testConfig(s, { backend: "handoff" });
    const digests = [
      digest({ sessionId: "a", project: s.project, userPrompts: ["Summarise the failing tests"] }),
      digest({ sessionId: "b", project: s.project, userPrompts: ["Explain the build error"] }),
    ];
    let t = Date.UTC(2024, 4, 1, 3, 0, 0);
    const ids = new Set<string>();
    let rounds = 0;
    for (;;) {
      // One recorder per round, as each `sleep run` is its own process.
      const recorder = createNightRecorder({ db, trigger: "cli" });
      const harvest = async () => ({ digests, notes: [] });
      const out = await runHandoffNight({ config: cfg, now: () => (t += 1000), env: {}, harvest, recorder });
      ids.add(recorder.nightId()!);
      rounds++;
      const row = await getNight(recorder.nightId()!, { db });
      if (out.kind !== "pending") {
        expect(out.kind).toBe("done");
        if (out.kind === "done")
          expect(row).toMatchObject({ status: "staged", night: 1, stagingDir: out.outcome.stagingDir });
        expect((await nightDetail(row)).handoff).toBeNull();
        break;
      }
      expect(row).toMatchObject({ status: "handoff_pending", night: 1, backend: "handoff" });
      expect(row.error).toContain(out.promptsPath);
      const detail = await nightDetail(row);
      expect(detail.handoff).toEqual({
        dir: join(s.project, ".skillopt-sleep-handoff"),
        promptsPath: out.promptsPath,
        answersDir: out.answersDir,
        pending: out.pending,
      });
      const state = JSON.parse(readFileSync(join(stateDirOf(cfg), "state.json"), "utf8"));
      expect(state.handoff_waiting).toMatchObject([{ project: s.project, night: 1, prompts_path: out.promptsPath }]);
      const pending = JSON.parse(readFileSync(join(out.answersDir, "..", "pending.json"), "utf8"));
      for (const p of pending.pending) writeText(p.answer_file, answer(p.prompt));
      expect(rounds).toBeLessThan(8);
    }
    expect(rounds).toBeGreaterThanOrEqual(3);
    expect(ids.size).toBe(1);
    expect(await db.sleepNight.count({ where: { projectDir: s.project } })).toBe(1);
    const state = JSON.parse(readFileSync(join(stateDirOf(cfg), "state.json"), "utf8"));
    expect(state).toMatchObject({ night: 1, handoff_waiting: [] });
  });
});
