import { describe, expect, it } from "vitest";
import type { PairPolicy } from "./types";
import { buildPair, formatComparison, longitudinalPairs, slim } from "./longitudinal";
import type { Environment, RolloutInput } from "./ports";
import { ScriptedClient, testConfig, testContext, testDeps, wordEnv, wordSplits } from "./testing";
import type { Item, Splits, Trajectory } from "./types";

/** The word environment, recording every rollout it is asked for. */
function recordingEnv() {
  const inner = wordEnv();
  const seen: Array<{ id: string; seed: number; phase: string; skill: string }> = [];
  const env: Environment = {
    ...inner,
    async rollout(input: RolloutInput) {
      seen.push({ id: input.item.id, seed: input.seed, phase: input.phase, skill: input.skill });
      return inner.rollout(input);
    },
  };
  return { env, seen };
}

function setup(policy: PairPolicy, opts: { samples?: number; splits?: Splits } = {}) {
  const { env, seen } = recordingEnv();
  const splits = opts.splits ?? wordSplits(["alpha", "beta", "gamma", "delta"]);
  const config = testConfig({
    optimizer: { slow_update_samples: opts.samples ?? 4, longitudinal_pair_policy: policy },
  });
  const deps = testDeps({
    optimizer: new ScriptedClient(() => new Error("no optimizer call expected")),
    config,
    env,
    splits,
  });
  return { ctx: testContext(deps), deps, seen, splits };
}

// Items t0…t11 need alpha, beta, gamma, delta in turn. prev knows alpha+beta, curr knows beta+gamma:
// alpha items regress, beta items stay solved, gamma items improve, delta items keep failing.
const PREV = "# Skill\n- alpha\n- beta\n";
const CURR = "# Skill\n- beta\n- gamma\n";
// CPython: random.Random(42 + 2*2000).shuffle(['t0',…,'t11'])
//   → ['t1','t7','t6','t3','t4','t5','t10','t11','t2','t8','t0','t9']
const SAMPLED = ["t1", "t7", "t6", "t3"];

const run = (ctx: ReturnType<typeof setup>["ctx"], train: Item[]) =>
  longitudinalPairs(ctx, { epoch: 2, prevSkill: PREV, currSkill: CURR, dirBase: "slow_update/epoch_02", train });

describe("longitudinalPairs", () => {
  it("samples n train items with seed + 2000·epoch and rolls both skills out on them", async () => {
    const { ctx, seen, splits, deps } = setup("mixed");
    const r = await run(ctx, splits.train);
    expect(r.all.map((p) => p.id)).toEqual(SAMPLED);
    expect(r.all.map((p) => p.category)).toEqual(["stable_success", "persistent_fail", "improved", "persistent_fail"]);
    expect(r.selected).toEqual(r.all);
    expect(r.changed).toBe(false);
    expect(r.prevHard).toBe(0.25);
    expect(r.currHard).toBe(0.5);
    expect(seen.every((s) => s.phase === "longitudinal" && s.seed === 4042)).toBe(true);
    expect(
      seen
        .filter((s) => s.skill === PREV)
        .map((s) => s.id)
        .sort(),
    ).toEqual([...SAMPLED].sort());
    expect(
      seen
        .filter((s) => s.skill === CURR)
        .map((s) => s.id)
        .sort(),
    ).toEqual([...SAMPLED].sort());
    expect(deps.store.rows.has("slow_update/epoch_02/rollout_prev/results.jsonl")).toBe(true);
    expect(deps.store.rows.has("slow_update/epoch_02/rollout_curr/results.jsonl")).toBe(true);
  });

  it("unchanged keeps persistent failures and stable successes only, without top-up", async () => {
    const { ctx, seen, splits } = setup("unchanged");
    const r = await run(ctx, splits.train);
    expect(r.selected.map((p) => p.id)).toEqual(["t1", "t7", "t3"]);
    expect(r.all.map((p) => p.id)).toEqual(SAMPLED);
    expect(r.changed).toBe(true);
    expect(seen).toHaveLength(8);
  });

  it("changed keeps improvements and regressions and tops up from the shuffled train items with seed' + i + 1", async () => {
    const { ctx, seen, splits, deps } = setup("changed");
    const r = await run(ctx, splits.train);
    // Candidates after dropping the sampled ids: t4 (regressed), t5 (stable), t10 (improved), t11 (persistent),
    // t2 (improved) → the list is full after t2.
    expect(r.selected.map((p) => [p.id, p.category])).toEqual([
      ["t6", "improved"],
      ["t4", "regressed"],
      ["t10", "improved"],
      ["t2", "improved"],
    ]);
    expect(r.all.map((p) => p.id)).toEqual([...SAMPLED, "t4", "t5", "t10", "t11", "t2"]);
    expect(r.changed).toBe(true);
    // Scores are those of the sampled items only.
    expect([r.prevHard, r.currHard]).toEqual([0.25, 0.5]);
    const topups = seen.slice(8);
    expect(topups.map((s) => [s.id, s.seed, s.skill === PREV ? "prev" : "curr"])).toEqual([
      ["t4", 4043, "prev"],
      ["t4", 4043, "curr"],
      ["t5", 4044, "prev"],
      ["t5", 4044, "curr"],
      ["t10", 4045, "prev"],
      ["t10", 4045, "curr"],
      ["t11", 4046, "prev"],
      ["t11", 4046, "curr"],
      ["t2", 4047, "prev"],
      ["t2", 4047, "curr"],
    ]);
    expect(deps.store.rows.has("slow_update/epoch_02/rollout_prev/topup/t4/results.jsonl")).toBe(true);
    expect(deps.store.rows.has("slow_update/epoch_02/rollout_curr/topup/t2/results.jsonl")).toBe(true);
  });

  it("prepares the sampled batch with its seed but rolls top-up items out as they are in the split", async () => {
    const inner = wordEnv();
    const seen: Array<{ id: string; prepared: unknown }> = [];
    const env: Environment = {
      ...inner,
      prepareBatch: (items, seed) => items.map((it) => ({ ...it, prepared: seed })),
      async rollout(input: RolloutInput) {
        seen.push({ id: input.item.id, prepared: input.item.prepared });
        return inner.rollout(input);
      },
    };
    const config = testConfig({ optimizer: { slow_update_samples: 4, longitudinal_pair_policy: "changed" } });
    const splits = wordSplits(["alpha", "beta", "gamma", "delta"]);
    const deps = testDeps({
      optimizer: new ScriptedClient(() => new Error("no optimizer call expected")),
      config,
      env,
      splits,
    });
    await run(testContext(deps), splits.train);
    expect(seen.slice(0, 8).every((s) => s.prepared === 4042)).toBe(true);
    expect(seen.length).toBeGreaterThan(8);
    expect(seen.slice(8).every((s) => s.prepared === undefined)).toBe(true);
  });

  it("changed stops topping up as soon as the selection is full", async () => {
    const { ctx, seen, splits } = setup("changed", { samples: 1 });
    // The sample is [t1] (stable); candidates t7 (persistent), then t6 (improved) fills the selection.
    const r = await run(ctx, splits.train);
    expect(r.selected.map((p) => p.id)).toEqual(["t6"]);
    expect(seen.map((s) => [s.id, s.seed])).toEqual([
      ["t1", 4042],
      ["t1", 4042],
      ["t7", 4043],
      ["t7", 4043],
      ["t6", 4044],
      ["t6", 4044],
    ]);
  });

  it("changed does not top up when the sample already has n changed pairs", async () => {
    const { ctx, seen, splits } = setup("changed");
    // prev knows alpha+beta, curr gamma+delta: t1 regresses, t7, t6 and t3 improve.
    const r = await longitudinalPairs(ctx, {
      epoch: 2,
      prevSkill: PREV,
      currSkill: "# Skill\n- gamma\n- delta\n",
      dirBase: "x",
      train: splits.train,
    });
    expect(r.selected.map((p) => [p.id, p.category])).toEqual([
      ["t1", "regressed"],
      ["t7", "improved"],
      ["t6", "improved"],
      ["t3", "improved"],
    ]);
    expect(r.changed).toBe(false);
    expect(seen).toHaveLength(8);
  });

  it("names top-up folders with safe ids", async () => {
    // Every item needs "alpha", which neither skill has: nothing qualifies, so every candidate is tried.
    const ids = ["p q/1", "???", "ok", "__x__", "a".repeat(100), "zz"];
    const train = ids.map((id) => ({ id, question: `q ${id}`, needs: "alpha" }));
    const splits: Splits = { train, val: train, test: train };
    const { ctx, deps } = setup("changed", { samples: 1, splits });
    // CPython: random.Random(4042).shuffle(ids) → ['__x__', 'ok', 'zz', '???', 'p q/1', 'a'*100]
    const r = await longitudinalPairs(ctx, {
      epoch: 2,
      prevSkill: "# none",
      currSkill: "# none either",
      dirBase: "d",
      train,
    });
    expect(r.selected).toEqual([]);
    expect(r.all.map((p) => p.id)).toEqual(["__x__", "ok", "zz", "???", "p q/1", "a".repeat(100)]);
    const dirs = [...deps.store.rows.keys()]
      .filter((k) => k.startsWith("d/rollout_prev/topup/"))
      .map((k) => k.split("/")[3]);
    expect(dirs).toEqual(["ok", "zz", "item", "p_q_1", "a".repeat(80)]);
  });
});

describe("buildPair", () => {
  const item: Item = { id: "i1", question: "What?" };
  const traj = (hard: number, extra: Partial<Trajectory> = {}): Trajectory => ({
    id: "i1",
    hard,
    soft: hard ? 1 : 0.25,
    status: "ok",
    prediction: hard ? "right" : "wrong",
    failReason: hard ? undefined : "EM=0: wrong",
    conversation: [{ role: "assistant", content: "said something" }, "loose text"],
    ...extra,
  });

  it.each([
    [0, 1, "improved"],
    [1, 0, "regressed"],
    [0, 0, "persistent_fail"],
    [1, 1, "stable_success"],
    [0.5, 0, "regressed"],
    [0, 0.5, "improved"],
  ])("prev hard %s, curr hard %s → %s", (p, c, category) => {
    expect(buildPair(item, traj(p), traj(c)).category).toBe(category);
  });

  it("records both sides and renders the trajectories without non-object entries", () => {
    const pair = buildPair(item, traj(1), traj(0));
    expect(pair).toMatchObject({
      id: "i1",
      task: "What?",
      prev: { hard: 1, soft: 1, predicted_answer: "right", fail_reason: "" },
      curr: { hard: 0, soft: 0.25, predicted_answer: "wrong", fail_reason: "EM=0: wrong" },
    });
    expect(pair.prev_trajectory).toBe("[assistant] said something");
    expect(slim([pair])).toEqual([
      { id: "i1", task: "What?", category: "regressed", prev: pair.prev, curr: pair.curr },
    ]);
  });

  it("uses placeholders for a missing row and an empty conversation", () => {
    const pair = buildPair(item, undefined, traj(0, { conversation: [], prediction: undefined }));
    expect(pair.prev).toEqual({ hard: 0, soft: 0, predicted_answer: "N/A", fail_reason: "" });
    expect(pair.prev_trajectory).toBe("(trajectory not available)");
    expect(pair.curr_trajectory).toBe("(empty trajectory)");
    expect(pair.curr.predicted_answer).toBe("N/A");
  });

  it("takes the task text from question, else task_description, else instruction, else the id", () => {
    expect(buildPair({ id: "a", task_description: "desc", instruction: "ins" }, undefined, undefined).task).toBe(
      "desc",
    );
    expect(buildPair({ id: "a", instruction: "ins" }, undefined, undefined).task).toBe("ins");
    expect(buildPair({ id: "a" }, undefined, undefined).task).toBe("a");
  });
});

describe("formatComparison", () => {
  const t = (id: string, hard: number, reason?: string, said = `said-${id}`): Trajectory => ({
    id,
    hard,
    soft: hard ? 1 : 0.25,
    status: "ok",
    prediction: hard ? `right-${id}` : `wrong-${id}`,
    failReason: reason,
    conversation: [{ role: "assistant", content: said }],
  });
  const pair = (id: string, p: number, c: number, pr?: string, cr?: string) =>
    buildPair({ id, question: `task ${id}` }, t(id, p, pr, `prev-${id}`), t(id, c, cr, `curr-${id}`));

  it("puts regressions first, then persistent failures, improvements and stable successes", () => {
    const text = formatComparison([
      pair("s", 1, 1),
      pair("i", 0, 1, "EM=0: was wrong"),
      pair("p", 0, 0, "EM=0: still wrong before", "EM=0: still wrong now"),
      pair("r", 1, 0, "stale reason", "EM=0: broke"),
    ]);
    const first = text.split("\n")[0]!;
    expect(first).toMatch(/4\b/);
    expect(first).toMatch(/improved: 1/);
    expect(first).toMatch(/regressed: 1/);
    const order = ["Task r:", "Task p:", "Task i:", "Task s:"].map((m) => text.indexOf(m));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toMatch(/Regression[^\n]*highest priority/);
    expect(text).not.toContain("(none)");
    // Regressed: PASS → FAIL with the current reason; the previous reason only when the previous run failed.
    const r = text.slice(text.indexOf("Task r:"), text.indexOf("Task p:"));
    expect(r).toContain("PASS (soft 1.00)");
    expect(r).toContain("FAIL (soft 0.25)");
    expect(r).toContain("wrong-r");
    expect(r).toContain("EM=0: broke");
    expect(r).not.toContain("stale reason");
    expect(r).toContain("prev-r");
    expect(r).toContain("curr-r");
    const p = text.slice(text.indexOf("Task p:"), text.indexOf("Task i:"));
    expect(p).toContain("EM=0: still wrong before");
    expect(p).toContain("EM=0: still wrong now");
    expect(p).toContain("prev-p");
    // Stable successes show no trajectories.
    const s = text.slice(text.indexOf("Task s:"));
    expect(s).not.toContain("prev-s");
    expect(s).not.toContain("curr-s");
    expect(s).not.toContain("```");
  });

  it("marks empty sections with (none)", () => {
    const text = formatComparison([pair("r", 1, 0, undefined, "EM=0: broke")]);
    expect(text.match(/\(none\)/g)).toHaveLength(3);
    expect(formatComparison([]).match(/\(none\)/g)).toHaveLength(4);
  });
});
