import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../contracts/events";
import { finishTraining, taskTypeBuckets } from "./finish";
import { evalItems } from "./phases/evaluate";
import { skillHash } from "./scoring";
import { freshState, type TrainState } from "./state";
import { CountingClient, ScriptedClient, testConfig, testContext, testDeps } from "./testing";
import type { StepRecord, Trajectory } from "./types";

// Selection and test items need alpha, beta, gamma in turn (6 each); a skill naming two words scores 4/6.
const INIT = "# Skill\n";
const AB = "# Skill\n- alpha\n- beta\n";
const AG = "# Skill\n- alpha\n- gamma\n";
const ABG = "# Skill\n- alpha\n- beta\n- gamma\n";

function setup(evalTest = true) {
  const target = new CountingClient(new ScriptedClient(() => "ok"));
  const events: EngineEvent[] = [];
  const deps = testDeps({
    optimizer: new ScriptedClient(() => new Error("no optimizer call expected")),
    target,
    config: testConfig({ evaluation: { eval_test: evalTest } }),
    initialSkill: INIT,
    onEvent: (e) => events.push(e),
  });
  const ctx = testContext(deps);
  const finish = (st: TrainState) =>
    finishTraining(ctx, st, {
      splits: deps.splits,
      initialSkill: INIT,
      selectionItems: evalItems(ctx, deps.splits, "val"),
      startedAt: 0,
    });
  return { ctx, deps, target, events, finish };
}

function state(current: string, best: string, bestScore: number, history: StepRecord[] = []): TrainState {
  const st = freshState(INIT);
  Object.assign(st, {
    currentSkill: current,
    currentScore: bestScore,
    currentOrigin: "slow_update_epoch_02",
    bestSkill: best,
    bestScore,
    bestStep: 4,
    bestOrigin: "step_0004",
    lastCompletedStep: 9,
    history,
  });
  return st;
}

describe("final validation", () => {
  it("does not promote the final skill on a tie with best", async () => {
    const { deps, finish } = setup();
    const st = state(AB, AG, 4 / 6);
    const summary = await finish(st);
    expect([st.bestSkill, st.bestScore, st.bestStep, st.bestOrigin]).toEqual([AG, 4 / 6, 4, "step_0004"]);
    expect(summary.final_selection_hard).toBe(4 / 6);
    expect(summary.final_selection_soft).toBe((4 + 2 * 0.25) / 6);
    expect(deps.store.rows.get("final_selection_eval/results.jsonl")).toHaveLength(6);
    expect(await deps.store.getText("best_skill.md")).toBe(AG);
    expect(summary.best_selection_hard).toBe(4 / 6);
  });

  it("promotes the final skill when it scores strictly higher than best", async () => {
    const { deps, finish } = setup();
    const st = state(AB, AG, 0.5);
    const summary = await finish(st);
    expect([st.bestSkill, st.bestScore, st.bestStep, st.bestOrigin]).toEqual([AB, 4 / 6, 9, "slow_update_epoch_02"]);
    expect(await deps.store.getText("best_skill.md")).toBe(AB);
    expect(await deps.store.getJson("runtime_state.json")).toMatchObject({
      best_score: 4 / 6,
      best_step: 9,
      best_origin: "slow_update_epoch_02",
    });
    expect(summary).toMatchObject({ best_selection_hard: 4 / 6, best_step: 9, best_origin: "slow_update_epoch_02" });
    // After the promotion current == best, so the final test reuses the best test.
    expect(deps.store.rows.has("test_eval_final/results.jsonl")).toBe(false);
    expect(summary.final_test_hard).toBe(summary.test_hard);
  });

  it("current == best: no selection rollout, the best score stands in, and the final test reuses the best results", async () => {
    const { deps, target, events, finish } = setup();
    const st = state(ABG, ABG, 0.9);
    const summary = await finish(st);
    expect(summary.final_selection_hard).toBe(0.9);
    expect(summary.final_selection_soft).toBeNull();
    expect(deps.store.rows.has("final_selection_eval/results.jsonl")).toBe(false);
    expect(deps.store.rows.has("test_eval_final/results.jsonl")).toBe(false);
    // Baseline test + best test only.
    expect(target.count).toBe(12);
    expect(await deps.store.getJson("test_eval_final/summary.json")).toEqual(
      await deps.store.getJson("test_eval/summary.json"),
    );
    expect(summary).toMatchObject({
      test_hard: 1,
      final_test_hard: 1,
      baseline_test_hard: 0,
      test_delta_hard: 1,
      final_test_delta_hard: 1,
    });
    const tests = events.filter((e): e is Extract<EngineEvent, { type: "testScored" }> => e.type === "testScored");
    expect(tests.map((e) => e.which)).toEqual(["initial", "best", "final"]);
    expect(tests[2]!.results).toEqual(tests[1]!.results);
  });

  it("tests the final skill separately when it differs from best", async () => {
    const { deps, finish } = setup();
    const summary = await finish(state(AB, ABG, 1));
    expect(deps.store.rows.get("test_eval_final/results.jsonl")).toHaveLength(6);
    expect(summary).toMatchObject({ test_hard: 1, final_test_hard: 4 / 6, baseline_test_hard: 0 });
    expect(summary.final_test_delta_hard).toBe(4 / 6);
    expect(await deps.store.getJson("test_eval_baseline/summary.json")).toEqual({
      word: { total: 6, hard_acc: 0 },
      overall: { total: 6, hard_acc: 0 },
    });
  });

  it("eval_test false: no rollouts at all and null test fields", async () => {
    const { deps, target, finish } = setup(false);
    const summary = await finish(state(AB, ABG, 1));
    expect(target.count).toBe(0);
    expect(summary).toMatchObject({
      final_selection_hard: null,
      final_selection_soft: null,
      baseline_test_hard: null,
      test_hard: null,
      final_test_hard: null,
      test_delta_hard: null,
      final_test_delta_hard: null,
    });
    expect(await deps.store.getText("best_skill.md")).toBe(ABG);
    expect(await deps.store.getJson("summary.json")).toEqual(summary);
  });
});

describe("taskTypeBuckets", () => {
  const r = (hard: number, taskType?: string): Trajectory => ({
    id: "x",
    hard,
    soft: hard,
    status: "ok",
    taskType,
    conversation: [],
  });

  it("has one bucket per declared type plus overall, 'other' for untyped rows, and new buckets on demand", () => {
    expect(taskTypeBuckets([r(1, "math"), r(0, "math"), r(0.5), r(1, "code")], ["math", "text"])).toEqual({
      math: { total: 2, hard_acc: 0.5 },
      text: { total: 0, hard_acc: 0 },
      overall: { total: 4, hard_acc: 2.5 / 4 },
      other: { total: 1, hard_acc: 0.5 },
      code: { total: 1, hard_acc: 1 },
    });
  });

  it("is all zeros without rows", () => {
    expect(taskTypeBuckets([], ["a"])).toEqual({ a: { total: 0, hard_acc: 0 }, overall: { total: 0, hard_acc: 0 } });
  });
});

describe("summary", () => {
  const h = (step: number, epoch: number, action: string, best: number, current: number): StepRecord =>
    ({ step, epoch, step_in_epoch: step - 1, action, best_score: best, current_score: current }) as StepRecord;

  it("counts accepts (force_accept included), rejects and skip_no_patches only; skip_no_rewrite is neither", async () => {
    const { finish } = setup(false);
    const history = [
      h(1, 1, "accept_new_best", 0.5, 0.5),
      h(2, 1, "reject", 0.5, 0.5),
      h(3, 1, "skip_no_patches", 0.5, 0.5),
      h(4, 2, "skip_no_rewrite", 0.5, 0.5),
      h(5, 2, "force_accept", 0.6, 0.6),
      h(6, 2, "accept", 0.6, 0.55),
    ];
    const summary = await finish(state(AB, ABG, 0.6, history));
    expect(summary).toMatchObject({ total_steps: 6, total_accepts: 3, total_rejects: 1, total_skips: 1 });
    expect(summary.epoch_stats).toEqual([
      {
        epoch: 1,
        steps: [1, 2, 3],
        accepts: 1,
        rejects: 1,
        skips: 1,
        best_score_at_epoch_end: 0.5,
        current_score_at_epoch_end: 0.5,
      },
      {
        epoch: 2,
        steps: [4, 5, 6],
        accepts: 2,
        rejects: 0,
        skips: 0,
        best_score_at_epoch_end: 0.6,
        current_score_at_epoch_end: 0.55,
      },
    ]);
  });

  it("takes the baseline selection score from the cache entry of the initial skill, else null", async () => {
    const a = setup(false);
    const st = state(AB, ABG, 1);
    st.selCache[skillHash(INIT)] = [0.25, 0.4];
    expect((await a.finish(st)).baseline_selection_hard).toBe(0.25);
    const b = setup(false);
    expect((await b.finish(state(AB, ABG, 1))).baseline_selection_hard).toBeNull();
  });

  it("records origins, best step and token usage", async () => {
    const { finish } = setup();
    const summary = await finish(state(AB, ABG, 1));
    expect(summary).toMatchObject({ best_step: 4, current_origin: "slow_update_epoch_02", best_origin: "step_0004" });
    expect((summary.token_summary as Record<string, { calls: number }>).rollout!.calls).toBe(24);
  });
});
