/**
 * Eval-only (spec §18): score one skill on a split without any optimizer call.
 */
import { createContext, settleStore } from "./context";
import { rolloutItems } from "./phases/rollout";
import { planRun } from "./run-plan";
import { answeredScore, statusCounts } from "./outcomes";
import { buildEvalBatch } from "./split-plan";
import type { EngineDeps } from "./ports";
import type { Item, Trajectory } from "./types";
import { taskTypeBuckets } from "./finish";
import { toEvalItem } from "./phases/rollout";
import { skillHash } from "./scoring";
import type { EVAL_SPLITS } from "../contracts/events";

export type EvalSplit = (typeof EVAL_SPLITS)[number];

export interface EvalSummary {
  skill: string;
  split: EvalSplit;
  n_items: number;
  /** Means over the answered items; the unanswered ones are counted below. */
  hard: number;
  soft: number;
  n_errors: number;
  n_timeouts: number;
  n_truncated: number;
  by_task_type: ReturnType<typeof taskTypeBuckets>;
}

/** Rolls `skill` out on the split into the store root, writes eval_summary.json and emits `evalCompleted`. */
export async function runEvalOnly(
  deps: Omit<EngineDeps, "initialSkill"> & { skill: string; skillLabel: string; split: EvalSplit },
): Promise<EvalSummary> {
  const ctx = createContext({ ...deps, initialSkill: deps.skill }, planRun(deps.config, deps.splits));
  const { train, val, test } = deps.splits;
  let items: Item[];
  if (deps.split === "all") items = [...train, ...val, ...test];
  else {
    const source = deps.split === "train" ? train : deps.split === "valid_seen" ? val : test;
    items = buildEvalBatch(source, deps.config.evaluation.test_env_num);
  }
  const seed = deps.config.train.seed;
  if (ctx.env.prepareBatch) items = ctx.env.prepareBatch(items, seed);
  let rows: Trajectory[];
  try {
    rows = await rolloutItems(ctx, { dir: "eval", items, skill: deps.skill, phase: "test", seed });
  } catch (err) {
    await settleStore(ctx);
    throw err;
  }
  const { hard, soft } = answeredScore(rows);
  const counts = statusCounts(rows);
  const summary: EvalSummary = {
    skill: deps.skillLabel,
    split: deps.split,
    n_items: rows.length,
    hard,
    soft,
    n_errors: counts.nErrors,
    n_timeouts: counts.nTimeouts,
    n_truncated: counts.nTruncated,
    by_task_type: taskTypeBuckets(rows, ctx.env.taskTypes()),
  };
  await ctx.store.putJson("eval_summary.json", summary);
  await ctx.store.flush?.();
  await ctx.emit({
    type: "evalCompleted",
    split: deps.split,
    skillHash: skillHash(deps.skill),
    hard,
    soft,
    nItems: rows.length,
    ...counts,
    results: rows.map(toEvalItem),
  });
  return summary;
}
