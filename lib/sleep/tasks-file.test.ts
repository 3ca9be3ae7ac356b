import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTasksFile, makeTasksPayload, writeTasksFile } from "./tasks-file";
import { removeTempDirs, tempDir } from "./test-helpers";
import { makeTask } from "./types";

afterAll(removeTempDirs);
const o = { valFraction: 0.34, seed: 42 };

describe("tasks files", () => {
  it("round-trips: written unreviewed and redacted in snake_case, read back with splits", () => {
    const dir = tempDir();
    const tasks = [
      makeTask({ id: "a", intent: "use token=abc123def please", contextExcerpt: "c" }),
      makeTask({ id: "b", intent: "second" }),
    ];
    const path = writeTasksFile(
      join(dir, "t.json"),
      makeTasksPayload(tasks, { project: "/p", transcriptSource: "claude", nSessions: 2, targetSkillPath: "" }),
    );
    const raw = JSON.parse(readFileSync(path, "utf8"));
    expect(raw).toMatchObject({
      format: "skillopt_sleep.tasks.v1",
      project: "/p",
      transcript_source: "claude",
      n_sessions: 2,
      reviewed: false,
    });
    expect(raw.tasks[0]).toMatchObject({ intent: "use token=[REDACTED] please", context_excerpt: "c" });
    const loaded = loadTasksFile(path, o);
    expect(loaded.meta).toMatchObject({ reviewed: false, project: "/p", tasksFile: path });
    expect(loaded.tasks.map((t) => t.split).sort()).toEqual(["train", "val"]);
  });

  it("accepts a bare array and legacy split names; keeps given val/test splits", () => {
    const path = join(tempDir(), "t.json");
    writeFileSync(
      path,
      JSON.stringify([
        { id: "a", intent: "x", split: "holdout" },
        { id: "b", intent: "y", split: "replay" },
      ]),
    );
    expect(loadTasksFile(path, o).tasks.map((t) => t.split)).toEqual(["val", "train"]);
  });

  it("refuses unusable rule checks and bad entries, naming the file and task; returns warnings", () => {
    const path = join(tempDir(), "t.json");
    writeFileSync(
      path,
      JSON.stringify({
        reviewed: true,
        tasks: [{ id: "a", intent: "x", reference_kind: "rule", judge: { checks: [{ op: "regex", arg: "(" }] } }],
      }),
    );
    expect(() => loadTasksFile(path, o)).toThrow(
      new RegExp(`${path}: unusable rule checks:\\n  task a: check #0 regex does not compile`),
    );
    writeFileSync(
      path,
      JSON.stringify({
        tasks: [
          {
            id: "a",
            intent: "x",
            reference_kind: "rule",
            judge: {
              checks: [
                { op: "min_chars", arg: 0 },
                { op: "contains", arg: "y" },
              ],
            },
          },
        ],
      }),
    );
    expect(loadTasksFile(path, o).warnings).toEqual(["task a: check #0 min_chars=0 always passes"]);
    writeFileSync(path, JSON.stringify({ tasks: [{ intent: "no id" }] }));
    expect(() => loadTasksFile(path, o)).toThrow(new RegExp(`${path}: tasks\\[0\\]\\.id: `));
    writeFileSync(path, JSON.stringify({ tasks: {} }));
    expect(() => loadTasksFile(path, o)).toThrow("'tasks' must be an array");
  });
});
