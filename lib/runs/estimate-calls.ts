/**
 * How many model calls each phase of a run can make, at most, given the config and the split sizes —
 * the same rules the engine follows (lib/engine: step.ts, reflect.ts, aggregate.ts, select.ts,
 * epoch-boundary.ts, longitudinal.ts, finish.ts). Item counts are per rollout: multiply by the
 * benchmark's target calls per item for multi-turn benchmarks.
 */
import type { RunConfig } from "../contracts/run-config";
import type { Splits } from "../engine/types";

export interface CallPlan {
  steps: number;
  /** Items scored per evaluation of a skill on the selection and test splits. */
  selectionItems: number;
  testItems: number;
  /** Items per full training step (all accumulation batches; an epoch's last step may hold fewer). */
  itemsPerStep: number;
  /** Target rollouts (items), per phase. */
  rollouts: {
    baseline: number;
    train: number;
    selection: number;
    epochComparisons: number;
    slowUpdateGate: number;
    finalTests: number;
  };
  /** Optimizer calls, per phase. */
  optimizer: { analysts: number; merges: number; ranking: number; epochBoundary: number; rewrites: number };
}

/** Calls a hierarchical merge of `n` patches makes with chunks of `size` (a chunk of one is passed through). */
export function hierMergeCalls(n: number, size: number): number {
  const k = Math.max(2, size);
  let calls = 0;
  let cur = n;
  while (cur > 1) {
    const chunks = Math.ceil(cur / k);
    const singles = cur % k === 1 ? 1 : 0;
    calls += chunks - singles;
    cur = chunks;
  }
  return calls;
}

/**
 * Sizes of the training batches of one epoch, as the engine's planTrainEpoch cuts them: consecutive
 * slices of the shuffled train split, the last one shorter; a batch past the end is refilled whole.
 */
export function epochBatchSizes(trainSize: number, batchSize: number, batches: number): number[] {
  const sizes: number[] = [];
  let cursor = 0;
  for (let b = 0; b < batches; b++) {
    let n = Math.max(0, Math.min(batchSize, trainSize - cursor));
    cursor += n;
    if (n === 0) n = Math.min(batchSize, trainSize);
    sizes.push(n);
  }
  return sizes;
}

/**
 * Analyst and merge calls of one step with these accumulation batches, at most: the split of each batch
 * into failures and successes is unknown before the run, so every share is tried and the worst kept.
 */
export function reflectCallsPerStep(cfg: RunConfig, batches: number[]): { analysts: number; merges: number } {
  const m = Math.max(1, cfg.gradient.minibatch_size);
  const groups = (n: number) => Math.ceil(n / m);
  const succ = (n: number) => (cfg.gradient.failure_only ? 0 : groups(n));
  let analysts = 0;
  for (const b of batches) {
    let most = 0;
    for (let f = 0; f <= b; f++) most = Math.max(most, groups(f) + succ(b - f));
    analysts += most;
  }
  let merges = 0;
  const size = cfg.gradient.merge_batch_size;
  for (let f = 0; f <= Math.max(0, ...batches); f++) {
    const pf = batches.reduce((s, b) => s + groups(Math.min(f, b)), 0);
    const ps = batches.reduce((s, b) => s + succ(b - Math.min(f, b)), 0);
    merges = Math.max(merges, hierMergeCalls(pf, size) + hierMergeCalls(ps, size) + (pf > 0 && ps > 0 ? 1 : 0));
  }
  return { analysts, merges };
}

export function planCalls(
  cfg: RunConfig,
  splits: Splits,
  plan: { trainSize: number; stepsPerEpoch: number },
): CallPlan {
  const cap = (envNum: number, n: number) => (envNum > 0 && envNum < n ? envNum : n);
  const sel = cap(cfg.evaluation.sel_env_num, splits.val.length);
  const test = cap(cfg.evaluation.test_env_num, splits.test.length);
  const acc = cfg.train.accumulation;
  const sizes = epochBatchSizes(plan.trainSize, cfg.train.batch_size, plan.stepsPerEpoch * acc);
  const epochs = cfg.train.num_epochs;
  const steps = epochs * plan.stepsPerEpoch;
  let analysts = 0;
  let merges = 0;
  for (let s = 0; s < plan.stepsPerEpoch; s++) {
    const r = reflectCallsPerStep(cfg, sizes.slice(s * acc, (s + 1) * acc));
    analysts += epochs * r.analysts;
    merges += epochs * r.merges;
  }
  const o = cfg.optimizer;
  // Epoch boundaries after the first epoch: the slow update and the meta skill compare the epoch's last
  // skill with the previous one on the same train sample (rolled out once and shared by both).
  const boundaries = Math.max(0, cfg.train.num_epochs - 1);
  const slow = o.use_slow_update ? boundaries : 0;
  const meta = o.use_meta_skill ? boundaries : 0;
  const compared = o.use_slow_update || o.use_meta_skill ? boundaries : 0;
  // The `changed` pair policy tops a short sample up from the rest of the train split, one item at a time.
  const sample =
    o.longitudinal_pair_policy === "changed"
      ? splits.train.length
      : Math.min(o.slow_update_samples, splits.train.length);
  const mode = o.skill_update_mode;
  const lrCalls = o.lr_control_mode === "autonomous" ? 1 : 0;
  return {
    steps,
    selectionItems: sel,
    testItems: test,
    itemsPerStep: cfg.train.batch_size * acc,
    rollouts: {
      baseline: sel,
      train: epochs * sizes.reduce((a, b) => a + b, 0),
      // A step whose candidate is new is scored on the selection split (a step without edits is not).
      selection: steps * sel,
      epochComparisons: compared * 2 * sample,
      slowUpdateGate: o.slow_update_gate_with_selection ? slow * sel : 0,
      // Initial, best and final skill on the test split, and the final skill on selection when it is not the best.
      finalTests: cfg.evaluation.eval_test ? 3 * test + sel : 0,
    },
    optimizer: {
      analysts,
      merges,
      ranking: mode === "full_rewrite_minibatch" ? 0 : steps * (1 + lrCalls),
      epochBoundary: slow + meta,
      rewrites: mode === "rewrite_from_suggestions" ? steps : 0,
    },
  };
}
