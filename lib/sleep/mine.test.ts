import { describe, expect, it } from "vitest";
import { sha256Hex } from "./fs-safe";
import { assignSplits, dedupTasks, filterTasksForTarget, groupTasksBySkillHint, heuristicMine, mine } from "./mine";
import { digest } from "./test-helpers";
import { makeTask } from "./types";

describe("heuristic miner", () => {
  it("one task per session: intent, stable id, follow-ups as context, last final, tags, skill hint", () => {
    const [t] = heuristicMine([
      digest({
        sessionId: "s1",
        project: "/p",
        gitBranch: "main",
        userPrompts: ["Fix the flaky login test", "it still fails on CI", "use the mock clock"],
        assistantFinals: ["first", "Done: the test uses a fake clock now"],
        toolsUsed: ["Bash", "Edit", "Read", "Grep", "Write"],
        skillsUsed: ["testing", "testing"],
        feedbackSignals: ["neg:still fails"],
        nUserTurns: 3,
      }),
    ]);
    expect(t).toMatchObject({
      id: `task_${sha256Hex("/p::Fix the flaky login test").slice(0, 12)}`,
      intent: "Fix the flaky login test",
      contextExcerpt: "Follow-up constraints from the same session:\n- it still fails on CI\n- use the mock clock",
      attemptedSolution: "Done: the test uses a fake clock now",
      outcome: "fail",
      referenceKind: "none",
      tags: ["tools:Bash+Edit+Read+Grep", "branch:main"],
      sourceSessions: ["s1"],
      skillHint: "testing",
      split: "train",
    });
  });

  it("outcome: positive only → success, any negative → fail, 3+ turns → mixed, else unknown; short first prompts are skipped", () => {
    const outcomes = heuristicMine([
      digest({ sessionId: "a", userPrompts: ["Refactor the parser"], feedbackSignals: ["pos:thanks"] }),
      digest({ sessionId: "b", userPrompts: ["Refactor the lexer"], feedbackSignals: ["pos:thanks", "neg:wrong"] }),
      digest({ sessionId: "c", userPrompts: ["Refactor the writer", "x", "y"], nUserTurns: 3 }),
      digest({ sessionId: "d", userPrompts: ["Refactor the reader"] }),
      digest({ sessionId: "e", userPrompts: ["hi"] }),
      digest({ sessionId: "f", userPrompts: [] }),
    ]).map((t) => t.outcome);
    expect(outcomes).toEqual(["success", "fail", "mixed", "unknown"]);
  });

  it("clips a long intent to 800 characters and stops at the cap; several skills give no hint", () => {
    const ds = [
      digest({ sessionId: "a", userPrompts: ["x".repeat(900)], skillsUsed: ["a", "b"] }),
      digest({ sessionId: "b", userPrompts: ["Second task here"] }),
    ];
    const tasks = heuristicMine(ds, 1);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]!.intent).toBe(`${"x".repeat(800)} …`);
    expect(tasks[0]!.skillHint).toBe("");
  });
});

describe("dedup and grouping", () => {
  const t = (id: string, outcome: "fail" | "success" | "unknown", session: string, hint = "") =>
    makeTask({ id, intent: "do it", outcome, sourceSessions: [session], skillHint: hint });

  it("merges by id: sessions united, the most resolved outcome kept, a hint only when all agree", () => {
    const out = dedupTasks([
      t("x", "unknown", "s1", "a"),
      t("x", "success", "s2", "a"),
      t("y", "fail", "s3", "a"),
      t("y", "fail", "s4", "b"),
    ]);
    expect(out.map((x) => [x.id, x.outcome, x.sourceSessions, x.skillHint])).toEqual([
      ["x", "success", ["s1", "s2"], "a"],
      ["y", "fail", ["s3", "s4"], ""],
    ]);
  });

  it("groups by agreed hint; a partly missing or conflicting hint goes to the managed catch-all", () => {
    const groups = groupTasksBySkillHint(
      [
        t("a", "fail", "1", "git"),
        t("b", "fail", "2", "git"),
        t("b", "fail", "3", ""),
        t("c", "fail", "4", "docs"),
        t("d", "fail", "5"),
      ],
      "managed",
    );
    expect([...groups.entries()].map(([k, v]) => [k, v.map((x) => x.id)])).toEqual([
      ["git", ["a"]],
      ["managed", ["b", "d"]],
      ["docs", ["c"]],
    ]);
  });
});

describe("target filter", () => {
  const task = (id: string, intent: string) => makeTask({ id, intent });
  it("keeps tasks that share the skill's words, strongest first; keeps everything when nothing matches", () => {
    const skill = "# Git conflicts\n\nResolve merge conflicts carefully.\n";
    const tasks = [
      task("1", "write a poem"),
      task("2", "fix the rebase conflict"),
      task("3", "resolve merge conflicts in src"),
    ];
    expect(filterTasksForTarget(tasks, skill, "/x/.agents/skills/git-conflicts/SKILL.md").map((x) => x.id)).toEqual([
      "3",
      "2",
    ]);
    expect(filterTasksForTarget([task("1", "write a poem")], skill, "").map((x) => x.id)).toEqual(["1"]);
  });
});

describe("hash-stable splits", () => {
  const tasks = (ids: string[]) => ids.map((id) => makeTask({ id, intent: id }));
  const bucket = (id: string) => Number(BigInt(`0x${sha256Hex(`42${id}`)}`) % 100n);

  it("puts a task in val when its bucket is below round(val·100), test next, train otherwise", () => {
    const ids = Array.from({ length: 40 }, (_, i) => `task_${i}`);
    const out = assignSplits(tasks(ids), { valFraction: 0.34, testFraction: 0.2, seed: 42 });
    for (const t of out) expect(t.split).toBe(bucket(t.id) < 34 ? "val" : bucket(t.id) < 54 ? "test" : "train");
  });

  it("gives a task the same split whatever the other tasks of the night are", () => {
    const a = assignSplits(tasks(["t1", "t2", "t3", "t4", "t5", "t6"]), {
      valFraction: 0.34,
      testFraction: 0,
      seed: 42,
    });
    const b = assignSplits(tasks(["t4", "t9", "t1", "t8", "t3", "t7"]), {
      valFraction: 0.34,
      testFraction: 0,
      seed: 42,
    });
    for (const id of ["t1", "t3", "t4"])
      expect(b.find((t) => t.id === id)!.split).toBe(a.find((t) => t.id === id)!.split);
  });

  it("promotes the lowest-hash train task to val when val is empty; dream tasks always train", () => {
    const out = assignSplits(tasks(["a", "b"]), { valFraction: 0, testFraction: 0, seed: 42 });
    const lowest = ["a", "b"].sort((x, y) =>
      BigInt(`0x${sha256Hex(`42${x}`)}`) < BigInt(`0x${sha256Hex(`42${y}`)}`) ? -1 : 1,
    )[0];
    expect(out.find((t) => t.split === "val")!.id).toBe(lowest);
    const dream = makeTask({ id: "d", intent: "d", origin: "dream", split: "val" });
    expect(assignSplits([dream], { valFraction: 0.99, testFraction: 0, seed: 42 })[0]!.split).toBe("train");
    expect(() => assignSplits([], { valFraction: 0.5, testFraction: 0.5, seed: 1 })).toThrow(/must be < 1/);
  });

  it("promotes one val task to train when no train remains", () => {
    const out = assignSplits(tasks(["a", "b", "c"]), { valFraction: 0.99, testFraction: 0, seed: 42 });
    expect(out.filter((t) => t.split === "train")).toHaveLength(1);
  });
});

describe("mine", () => {
  const ds = [
    digest({ sessionId: "s1", userPrompts: ["Write the release notes"] }),
    digest({ sessionId: "s2", userPrompts: ["Write the release notes"] }),
    digest({ sessionId: "s3", userPrompts: ["Bump the version number"] }),
  ];
  const o = { maxTasks: 10, valFraction: 0.34, testFraction: 0, seed: 42 };

  it("falls back to the heuristic miner when the LLM miner yields nothing, dedups and assigns splits", async () => {
    const tasks = await mine(ds, { ...o, llmMiner: async () => [] });
    expect(tasks.map((t) => t.intent)).toEqual(["Write the release notes", "Bump the version number"]);
    expect(tasks[0]!.sourceSessions).toEqual(["s1", "s2"]);
    expect(tasks.some((t) => t.split === "val")).toBe(true);
  });

  it("uses the LLM miner's tasks when there are any, and caps the result", async () => {
    const llm = async () => [
      makeTask({ id: "llm_1", intent: "Mined task one" }),
      makeTask({ id: "llm_2", intent: "Mined task two" }),
    ];
    expect((await mine(ds, { ...o, maxTasks: 1, llmMiner: llm })).map((t) => t.id)).toEqual(["llm_1"]);
  });
});
