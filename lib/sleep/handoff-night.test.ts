import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stateDirOf } from "./config";
import { runHandoffNight, type HandoffOutcome } from "./handoff-night";
import { learnedLines } from "./learned";
import type { NightFailure, NightRecorder } from "./recorder";
import { readManifest } from "./staging/manifest";
import { digest, removeTempDirs, sandbox, testConfig, writeText } from "./test-helpers";

afterAll(removeTempDirs);

const RULE = "Wrap every final answer in <answer> tags.";

/** The session that answers the prompts: a miner, a target that follows the rule once it is in the skill, an optimizer. */
function answer(prompt: string): string {
  if (prompt.includes("# Session")) {
    const first = /user prompts:\n {2}- (.*)\n/.exec(prompt)![1]!;
    return JSON.stringify([
      { intent: `Reusable: ${first}`, checks: [{ op: "contains", arg: "<answer>" }], satisfied: false },
    ]);
  }
  if (prompt.includes("# Recurring failures"))
    return JSON.stringify([{ op: "add", content: RULE, rationale: "answers lacked tags" }]);
  return prompt.includes(RULE) ? "<answer>done</answer>" : "done";
}

describe("handoff night", () => {
  it("round trip: pending prompts → answers → resume → staged, with digests and tasks pinned", async () => {
    const s = sandbox();
    const cfg = testConfig(s, { backend: "handoff" });
    const dir = join(s.project, ".skillopt-sleep-handoff");
    let harvests = 0;
    const digests = [
      digest({ sessionId: "a", project: s.project, userPrompts: ["Summarise the failing tests"] }),
      digest({ sessionId: "b", project: s.project, userPrompts: ["Explain the build error"] }),
    ];
    let t = Date.UTC(2024, 4, 1, 3, 0, 0);
    const deps = {
      config: cfg,
      now: () => (t += 1000),
      env: {},
      harvest: async () => (harvests++, { digests, notes: [] }),
    };
    const rounds: HandoffOutcome[] = [];
    let out: HandoffOutcome;
    for (;;) {
      out = await runHandoffNight(deps);
      rounds.push(out);
      if (out.kind !== "pending") break;
      const pending = JSON.parse(readFileSync(join(dir, "pending.json"), "utf8"));
      expect(pending.format).toBe("skillopt_sleep.handoff.v1");
      expect(pending.pending).toHaveLength(out.pending);
      expect(readFileSync(out.promptsPath, "utf8")).toContain("----- BEGIN PROMPT");
      for (const p of pending.pending) writeText(p.answer_file, answer(p.prompt));
      expect(rounds.length).toBeLessThan(8);
    }
    expect(rounds.length).toBeGreaterThanOrEqual(3);
    expect(harvests).toBe(1);
    expect(out.kind).toBe("done");
    if (out.kind !== "done") return;
    expect(out.outcome.report).toMatchObject({ accepted: true, nTasks: 2 });
    expect(learnedLines(readFileSync(join(out.outcome.stagingDir, "proposed_SKILL.md"), "utf8"))).toEqual([RULE]);
    expect(readManifest(out.outcome.stagingDir).has_managed_skill).toBe(true);
    expect(out.archivedTo).toBe(`${dir}.night1.done`);
    expect(existsSync(dir)).toBe(false);
    const pinned = JSON.parse(readFileSync(join(out.archivedTo, "tasks.json"), "utf8"));
    expect(pinned).toMatchObject({ format: "skillopt_sleep.tasks.v1", reviewed: false });
    expect(pinned.tasks.map((x: { intent: string }) => x.intent)).toEqual([
      "Reusable: Summarise the failing tests",
      "Reusable: Explain the build error",
    ]);
    expect(existsSync(join(out.archivedTo, "digests.json"))).toBe(true);
    expect(JSON.parse(readFileSync(join(stateDirOf(cfg), "state.json"), "utf8")).night).toBe(1);
  });

  it("a pending round records the night as waiting in state.json (the counter unchanged) and stages nothing", async () => {
    const s = sandbox();
    const cfg = testConfig(s, { backend: "handoff" });
    const out = await runHandoffNight({
      config: cfg,
      now: () => Date.UTC(2024, 4, 1),
      env: {},
      harvest: async () => ({
        digests: [digest({ sessionId: "a", userPrompts: ["Summarise the failing tests"] })],
        notes: [],
      }),
    });
    expect(out).toMatchObject({ kind: "pending", pending: 1 });
    const state = JSON.parse(readFileSync(join(stateDirOf(cfg), "state.json"), "utf8"));
    expect(state.night).toBe(0);
    expect(state.handoff_waiting).toEqual([
      {
        project: s.project,
        night: 1,
        handoff_dir: join(s.project, ".skillopt-sleep-handoff"),
        prompts_path: out.kind === "pending" ? out.promptsPath : "",
        answers_dir: join(s.project, ".skillopt-sleep-handoff", "answers"),
        pending: 1,
        since: expect.stringMatching(/^2024-0[45]-\d\dT/),
      },
    ]);
    expect(existsSync(join(s.project, ".skillopt-sleep"))).toBe(false);
  });

  it("every round reaches the recorder as the same waiting night, with its prompts; the last one finishes it", async () => {
    const s = sandbox();
    const cfg = testConfig(s, { backend: "handoff" });
    const calls: Array<{ hook: string; night?: number; handoff?: NightFailure["handoff"]; pending?: boolean }> = [];
    const recorder: NightRecorder = {
      started: async (x) => void calls.push({ hook: "started", night: x.night }),
      finished: async (x) => void calls.push({ hook: "finished", night: x.outcome.report.night }),
      failed: async (x) => void calls.push({ hook: "failed", handoff: x.handoff, pending: x.pending }),
    };
    let t = Date.UTC(2024, 4, 1, 3, 0, 0);
    const digests = [digest({ sessionId: "a", project: s.project, userPrompts: ["Summarise the failing tests"] })];
    const deps = {
      config: cfg,
      now: () => (t += 1000),
      env: {},
      recorder,
      harvest: async () => ({ digests, notes: [] }),
    };
    let out: HandoffOutcome;
    for (let round = 0; ; round++) {
      out = await runHandoffNight(deps);
      if (out.kind !== "pending") break;
      const last = calls.at(-1)!;
      expect(last).toMatchObject({ hook: "failed", pending: true });
      expect(last.handoff).toMatchObject({
        promptsPath: out.promptsPath,
        answersDir: out.answersDir,
        pending: out.pending,
      });
      const pending = JSON.parse(readFileSync(join(s.project, ".skillopt-sleep-handoff", "pending.json"), "utf8"));
      for (const p of pending.pending) writeText(p.answer_file, answer(p.prompt));
      expect(round).toBeLessThan(8);
    }
    expect(out.kind).toBe("done");
    expect(calls.filter((c) => c.hook === "started").every((c) => c.night === 1)).toBe(true);
    expect(calls.filter((c) => c.hook === "failed").every((c) => c.pending)).toBe(true);
    expect(calls.at(-1)).toEqual({ hook: "finished", night: 1 });
    expect(calls.filter((c) => c.hook === "finished")).toHaveLength(1);
    const state = JSON.parse(readFileSync(join(stateDirOf(cfg), "state.json"), "utf8"));
    expect(state).toMatchObject({ night: 1, handoff_waiting: [] });
  });
});
