import { describe, expect, it } from "vitest";
import type { EngineEvent, EngineEventOf } from "../contracts/events";
import { RunCancelledError } from "./context";
import { MemoryCheckpointStore } from "./memory-store";
import { selOutcomesKey } from "./state";
import type { Environment, RolloutPhase } from "./ports";
import { testConfig, testDeps, wordEnv } from "./testing";
import { wordOptimizer } from "./testing-optimizer";
import { runTraining } from "./trainer";
import type { Item, StepRecord, TrajectoryStatus } from "./types";

/**
 * The word environment with injected non-answers. Selection items v0…v5 need alpha, beta, gamma, alpha,
 * beta, gamma; the seed below knows beta and gamma, so it answers v1 v2 v4 v5 right and the first
 * candidate (which adds alpha) answers everything right.
 */
const SEED = "# Skill\n\n## Rules\n- Be careful.\n- remember beta\n- remember gamma\n";
type Fail = (o: { item: Item; skill: string; phase: RolloutPhase }) => TrajectoryStatus | null;

function flakyEnv(fail: Fail): Environment {
  const inner = wordEnv();
  return {
    ...inner,
    async rollout(input) {
      const status = fail({ item: input.item, skill: input.skill, phase: input.phase });
      if (status)
        return { id: input.item.id, hard: 0, soft: 0, status, failReason: `${status}: injected`, conversation: [] };
      return inner.rollout(input);
    },
  };
}

const knowsAlpha = (skill: string) => skill.includes("remember alpha");
const on =
  (ids: string[], status: TrajectoryStatus = "error"): Fail =>
  ({ item, skill, phase }) =>
    phase === "selection" && knowsAlpha(skill) && ids.includes(item.id) ? status : null;

async function run(
  fail: Fail,
  evaluation: Record<string, unknown> = {},
  extra: { store?: MemoryCheckpointStore; signal?: AbortSignal; onEvent?: (e: EngineEvent) => void } = {},
) {
  const config = testConfig({ train: { num_epochs: 1, batch_size: 4 }, evaluation });
  const deps = testDeps({ optimizer: wordOptimizer(), env: flakyEnv(fail), config, initialSkill: SEED, ...extra });
  const summary = await runTraining(deps);
  const history = (await deps.store.getJson<StepRecord[]>("history.json")) ?? [];
  const of = <T extends EngineEvent["type"]>(t: T) =>
    deps.eventsSeen.filter((e): e is EngineEventOf<T> => e.type === t);
  return { deps, summary, history, of };
}

describe("errors are left out of both sides of the gate comparison", () => {
  it("errors on the candidate's side: the candidate, better on the answered items, is accepted", async () => {
    const r = await run(on(["v1", "v2", "v4"]), { max_error_share: 0.5 });
    const scored = r.of("candidateScored")[0]!;
    // Its own score is over the 3 items it answered; counting errors as 0 would have given 0.5 < 0.667.
    expect(scored).toMatchObject({ hard: 1, nItems: 6, nErrors: 3, nTimeouts: 0, nTruncated: 0 });
    const gate = r.of("gateDecided")[0]!;
    expect(gate).toMatchObject({
      action: "accept_new_best",
      nItems: 6,
      nPaired: 3,
      nErrors: 3,
      candidatePairedScore: 1,
      reason: null,
    });
    expect(gate.currentPairedScore).toBeCloseTo(1 / 3, 12); // the seed on v0 v3 v5
    expect(gate.currentScoreBefore).toBeCloseTo(2 / 3, 12);
    expect(r.history[0]).toMatchObject({
      action: "accept_new_best",
      selection_n: 6,
      selection_n_paired: 3,
      selection_errors: 3,
      current_score: 1,
    });
    expect(await r.deps.store.getText("best_skill.md")).toContain("remember alpha");
  });

  it("errors on both sides: only the items both answered count, and the baseline is over its answered items", async () => {
    const fail: Fail = ({ item, skill, phase }) => {
      if (phase !== "selection") return null;
      if (!knowsAlpha(skill) && item.id === "v3") return "timeout";
      return knowsAlpha(skill) && item.id === "v4" ? "error" : null;
    };
    const r = await run(fail, { max_error_share: 0.4 });
    expect(r.of("baselineScored")[0]).toMatchObject({ hard: 0.8, score: 0.8, nItems: 6, nTimeouts: 1, nErrors: 0 });
    const gate = r.of("gateDecided")[0]!;
    // Paired items v0 v1 v2 v5: candidate 4/4, seed 3/4.
    expect(gate).toMatchObject({
      action: "accept_new_best",
      nPaired: 4,
      nErrors: 1,
      nTimeouts: 1,
      candidatePairedScore: 1,
      currentPairedScore: 0.75,
    });
    expect(r.summary.baseline_selection_hard).toBe(0.8);
  });

  it("a truncated answer is left out exactly like an error", async () => {
    const r = await run(on(["v1"], "truncated"));
    const gate = r.of("gateDecided")[0]!;
    expect(gate).toMatchObject({
      action: "accept_new_best",
      nPaired: 5,
      nTruncated: 1,
      nErrors: 0,
      candidatePairedScore: 1,
    });
    expect(gate.currentPairedScore).toBeCloseTo(3 / 5, 12);
    expect(r.of("candidateScored")[0]).toMatchObject({ hard: 1, nTruncated: 1 });
  });

  it("more unanswered items than max_error_share: the step is skipped with the reason, not decided", async () => {
    const r = await run(on(["v1", "v2", "v4"]), { max_error_share: 0.2 });
    const gate = r.of("gateDecided")[0]!;
    const reason =
      "3 of 6 selection items were not answered by both skills (3 errors; candidate 3, current skill 0 unanswered), more than evaluation.max_error_share = 0.2";
    expect(gate).toMatchObject({ action: "skip_errors", reason, currentScore: gate.currentScoreBefore });
    expect(r.history[0]).toMatchObject({ action: "skip_errors", gate_skip_reason: reason, selection_n_paired: 3 });
    expect(r.history.every((h) => String(h.action).startsWith("skip"))).toBe(true);
    expect(await r.deps.store.getText("best_skill.md")).toBe(SEED);
    expect(r.summary.total_error_skips).toBeGreaterThanOrEqual(1);
    expect(r.summary.best_selection_hard).toBeCloseTo(4 / 6, 12);
  });

  it("no item answered by both skills: skipped even when any share is allowed", async () => {
    const fail: Fail = ({ item, skill, phase }) => {
      if (phase !== "selection") return null;
      const first = ["v0", "v1", "v2"].includes(item.id);
      return knowsAlpha(skill) === first ? "error" : null;
    };
    const r = await run(fail, { max_error_share: 1 });
    expect(r.of("gateDecided")[0]).toMatchObject({
      action: "skip_errors",
      nPaired: 0,
      reason: "no selection item was answered by both skills (6 errors; candidate 3, current skill 3 unanswered)",
    });
  });

  it("train rollout scores are over the answered items; errors are counted apart", async () => {
    const r = await run(({ item, phase }) => (phase === "train" && ["t0", "t5"].includes(item.id) ? "error" : null));
    const rollouts = r.of("rolloutCompleted");
    const withErrors = rollouts.filter((e) => e.nErrors > 0);
    expect(withErrors.length).toBeGreaterThan(0);
    for (const e of rollouts) {
      const ok = e.results.filter((x) => x.status === "ok");
      expect(e.hard).toBeCloseTo(ok.reduce((s, x) => s + x.hard, 0) / ok.length, 6);
    }
    expect(r.history.reduce((s, h) => s + (h.n_errors as number), 0)).toBe(2);
  });
});

describe("the slow update's selection gate pairs too", () => {
  it("skips a slow update whose evaluation left too many items unanswered", async () => {
    const fail: Fail = ({ item, skill, phase }) =>
      phase === "selection" && skill.includes("keep going") && ["v0", "v1", "v2"].includes(item.id) ? "error" : null;
    const config = testConfig({
      train: { num_epochs: 2, batch_size: 4 },
      optimizer: { slow_update_gate_with_selection: true },
    });
    const deps = testDeps({ optimizer: wordOptimizer(), env: flakyEnv(fail), config, initialSkill: SEED });
    await runTraining(deps);
    const result = await deps.store.getJson<Record<string, unknown>>("slow_update/epoch_02/slow_result.json");
    expect(result).toMatchObject({ action: "skip_errors", selection_n_paired: 3, selection_errors: 3 });
    expect(String(result!.gate_skip_reason)).toMatch(
      /3 of 6 selection items were not answered by both skills \(3 errors; candidate 3, current skill 0 unanswered\)/,
    );
  });
});

describe("resume keeps the per-item selection cache", () => {
  // One word per step (learning rate 1), so several steps are gated; both sides have unanswered items.
  const config = testConfig({
    train: { num_epochs: 2, batch_size: 4 },
    gradient: { minibatch_size: 1, merge_batch_size: 2 },
    optimizer: { learning_rate: 1, min_learning_rate: 1 },
    evaluation: { max_error_share: 0.4 },
  });
  const fail: Fail = ({ item, skill, phase }) => {
    if (phase !== "selection") return null;
    if (!skill.includes("remember gamma") && item.id === "v3") return "timeout";
    return skill.includes("remember beta") && item.id === "v4" ? "error" : null;
  };
  const start = (
    extra: { store?: MemoryCheckpointStore; signal?: AbortSignal; onEvent?: (e: EngineEvent) => void } = {},
  ) => testDeps({ optimizer: wordOptimizer(), env: flakyEnv(fail), config, ...extra });
  const phases = ["stepStarted", "candidateBuilt", "candidateScored", "gateDecided", "stepCommitted"] as const;

  it.each(phases)(
    "interrupted at step 2 after %s, the resumed run compares exactly as the uninterrupted one",
    async (phase) => {
      const ref = start();
      await runTraining(ref);
      const refHistory = (await ref.store.getJson<StepRecord[]>("history.json"))!;
      expect(
        refHistory.filter((h) => typeof h.selection_n_paired === "number" && (h.selection_n_paired as number) < 6)
          .length,
      ).toBeGreaterThan(1);
      const store = new MemoryCheckpointStore();
      const ac = new AbortController();
      const first = start({
        store,
        signal: ac.signal,
        onEvent: (e) => e.type === phase && "step" in e && e.step === 2 && ac.abort(),
      });
      await expect(runTraining(first)).rejects.toThrow(RunCancelledError);
      await runTraining(start({ store }));
      expect(await store.getJson("history.json")).toEqual(refHistory);
      expect(await store.getText("best_skill.md")).toBe(await ref.store.getText("best_skill.md"));
    },
  );

  it("a state saved with the outcomes inline (before they had their own keys) resumes exactly as the uninterrupted run", async () => {
    const ref = start();
    await runTraining(ref);
    const store = new MemoryCheckpointStore();
    const ac = new AbortController();
    const first = start({
      store,
      signal: ac.signal,
      onEvent: (e) => e.type === "stepStarted" && e.step === 3 && ac.abort(),
    });
    await expect(runTraining(first)).rejects.toThrow(RunCancelledError);
    const state = (await store.getJson<Record<string, unknown>>("runtime_state.json"))!;
    const inline: Record<string, unknown> = {};
    for (const h of Object.keys(state.sel_cache as Record<string, unknown>)) {
      inline[h] = await store.getJson(selOutcomesKey(h));
      store.json.delete(selOutcomesKey(h));
    }
    expect(Object.keys(inline).length).toBeGreaterThan(1);
    await store.putJson("runtime_state.json", { ...state, sel_outcomes: inline });
    await runTraining(start({ store }));
    expect(await store.getJson("history.json")).toEqual(await ref.store.getJson("history.json"));
    for (const h of Object.keys(inline)) expect(await store.getJson(selOutcomesKey(h))).toEqual(inline[h]);
  });

  it("the saved state names each skill's per-item outcomes, stored once under its own key, and what backs the current score", async () => {
    const store = new MemoryCheckpointStore();
    const writes: string[] = [];
    const putJson = store.putJson.bind(store);
    store.putJson = async (key, value) => {
      writes.push(key);
      await putJson(key, value);
    };
    await runTraining(start({ store }));
    const state = (await store.getJson<Record<string, unknown>>("runtime_state.json"))!;
    // Not inline: the state would grow by every scored skill's outcomes at every commit (O(steps²) bytes).
    expect(state.sel_outcomes).toBeUndefined();
    const hashes = Object.keys(state.sel_cache as Record<string, unknown>);
    const outcomes: Record<string, Record<string, unknown>> = {};
    for (const h of hashes) outcomes[h] = (await store.getJson<Record<string, unknown>>(selOutcomesKey(h)))!;
    const outcomeWrites = writes.filter((k) => k.startsWith("sel_outcomes/"));
    expect(new Set(outcomeWrites).size).toBe(outcomeWrites.length);
    // Every write is of a cached skill (a force-injected slow update is cached without outcomes).
    expect(outcomeWrites.filter((k) => !hashes.map(selOutcomesKey).includes(k))).toEqual([]);
    expect(Object.keys(outcomes).length).toBeGreaterThan(1);
    expect(outcomes[state.current_score_hash as string]).toBeDefined();
    expect(Object.values(outcomes).some((o) => o.v3 === "timeout")).toBe(true);
    expect(Object.values(outcomes).some((o) => o.v4 === "error")).toBe(true);
  });
});
