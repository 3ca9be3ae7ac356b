/** Longitudinal pairs: sampling, the pair policies and top-up. One pair and its prompt text: longitudinal-format.test.ts. */
import { describe, expect, it } from "vitest";
import type { PairPolicy } from "./types";
import { longitudinalPairs } from "./longitudinal";
import type { Environment, RolloutInput } from "./ports";
import { ScriptedClient, testConfig, testContext, testDeps, wordEnv, wordSplits } from "./testing";
import type { Item, Splits } from "./types";

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
