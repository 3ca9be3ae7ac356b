/**
 * Selection evaluation with the skill-hash cache (spec §7.8 step 1), and the gate score of a skill.
 * The selection set is the same items for every evaluation: the first `sel_env_num` of the val split.
 */
import type { RunContext } from "../context";
import { gateScore, parseLeadingWords } from "../gate";
import type { Item, Splits, Trajectory } from "../types";
import { computeScore, skillHash } from "../scoring";
import { buildEvalBatch } from "../split-plan";
import type { TrainState } from "../state";

import { rolloutItems } from "./rollout";

/** Eval items of a split, prepared with the eval seed (LiveMath shuffles choices per batch seed). */
export function evalItems(ctx: RunContext, splits: Splits, split: "val" | "test"): Item[] {
  const envNum = split === "val" ? ctx.cfg.evaluation.sel_env_num : ctx.cfg.evaluation.test_env_num;
  const items = buildEvalBatch(splits[split], envNum);
  return ctx.env.prepareBatch ? ctx.env.prepareBatch(items, ctx.cfg.train.seed) : items;
}

export interface SelectionScore {
  hard: number;
  soft: number;
  cached: boolean;
  results: Trajectory[];
}

export async function scoreOnSelection(
  ctx: RunContext,
  st: TrainState,
  opts: { skill: string; dir: string; items: Item[] },
): Promise<SelectionScore> {
  const hash = skillHash(opts.skill);
  const hit = st.selCache[hash];
  if (hit) return { hard: hit[0], soft: hit[1], cached: true, results: [] };
  const results = await rolloutItems(ctx, {
    dir: opts.dir,
    items: opts.items,
    skill: opts.skill,
    phase: "selection",
    seed: ctx.cfg.train.seed,
  });
  const { hard, soft } = computeScore(results);
  st.selCache[hash] = [hard, soft];
  return { hard, soft, cached: false, results };
}

/** The gate-space score of (hard, soft) for a skill, with the optional density bonus. */
export function gateScoreOf(ctx: RunContext, score: { hard: number; soft: number }, skill: string): number {
  const ev = ctx.cfg.evaluation;
  return gateScore({
    hard: score.hard,
    soft: score.soft,
    metric: ev.gate_metric,
    mixedWeight: ev.gate_mixed_weight,
    skill,
    useDensity: ev.use_semantic_density,
    densityWeight: ev.semantic_density_weight,
    leadingWords: parseLeadingWords(ev.leading_words),
  });
}
