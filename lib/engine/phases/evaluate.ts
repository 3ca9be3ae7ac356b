/**
 * Selection evaluation with the skill-hash cache (spec §7.8 step 1), the gate score of a skill, and the
 * paired comparison of two skills on the items both answered. The selection set is the same items for
 * every evaluation: the first `sel_env_num` of the val split.
 */
import { describeUnanswered } from "../../contracts/coverage";
import type { RunContext } from "../context";
import { earlierEarlyReject, earlyStopFor, rememberEarlyReject } from "../early-gate";
import { gateScore, parseLeadingWords } from "../gate";
import type { PairedItemScore } from "../gate-evidence";
import {
  answeredScore,
  NO_FAILURES,
  outcomesOf,
  pairOutcomes,
  statusCounts,
  unansweredOf,
  type Outcomes,
  type StatusCounts,
} from "../outcomes";
import type { Item, Splits, Trajectory } from "../types";
import { skillHash } from "../scoring";
import { buildEvalBatch } from "../split-plan";
import { recallSelOutcomes, type TrainState } from "../state";

import { rolloutItems } from "./rollout";

/** Eval items of a split, prepared with the eval seed (LiveMath shuffles choices per batch seed). */
export function evalItems(ctx: RunContext, splits: Splits, split: "val" | "test"): Item[] {
  const envNum = split === "val" ? ctx.cfg.evaluation.sel_env_num : ctx.cfg.evaluation.test_env_num;
  const items = buildEvalBatch(splits[split], envNum);
  return ctx.env.prepareBatch ? ctx.env.prepareBatch(items, ctx.cfg.train.seed) : items;
}

export interface SelectionScore {
  /** Means over the answered items. */
  hard: number;
  soft: number;
  cached: boolean;
  results: Trajectory[];
  hash: string;
  /** Per-item outcomes; null for a cache entry saved without them (then the means stand for all items). */
  outcomes: Outcomes | null;
  nItems: number;
  counts: StatusCounts;
  /**
   * Set when scoring stopped early (`evaluation.early_decision`): the gate must reject whatever the
   * remaining items would have scored. `hard`/`soft` are then over the scored items only, and
   * `upperBound` is the highest hard mean the candidate could still have reached.
   */
  early?: { scored: number; upperBound: number };
}

export async function scoreOnSelection(
  ctx: RunContext,
  st: TrainState,
  opts: { skill: string; dir: string; items: Item[]; early?: boolean },
): Promise<SelectionScore> {
  const hash = skillHash(opts.skill);
  const hit = st.selCache[hash];
  if (hit) {
    const outcomes = await recallSelOutcomes(ctx, st, hash);
    const counts = outcomes ? statusCounts(outcomes) : { ...NO_FAILURES };
    return { hard: hit[0], soft: hit[1], cached: true, results: [], hash, outcomes, nItems: opts.items.length, counts };
  }
  const early = opts.early ? earlyStopFor(ctx, st, opts.items) : null;
  const again = early ? earlierEarlyReject(st, hash) : null;
  if (again !== null) {
    const none = { ...NO_FAILURES };
    return {
      hard: 0,
      soft: 0,
      cached: true,
      results: [],
      hash,
      outcomes: {},
      nItems: 0,
      counts: none,
      early: { scored: 0, upperBound: again },
    };
  }
  const results = await rolloutItems(ctx, {
    dir: opts.dir,
    items: opts.items,
    skill: opts.skill,
    phase: "selection",
    seed: ctx.cfg.train.seed,
    stopWhen: early?.stopWhen,
  });
  const { hard, soft } = answeredScore(results);
  if (early && results.length < opts.items.length) {
    // A partial score is a bound, never a full score: nothing is cached under the skill's hash.
    const outcomes = outcomesOf(results);
    const upperBound = early.upperBound(results);
    rememberEarlyReject(st, hash, upperBound);
    return {
      hard,
      soft,
      cached: false,
      results,
      hash,
      outcomes,
      nItems: results.length,
      counts: statusCounts(results),
      early: { scored: results.length, upperBound },
    };
  }
  const outcomes = outcomesOf(results);
  st.selCache[hash] = [hard, soft];
  st.selOutcomes[hash] = outcomes;
  return { hard, soft, cached: false, results, hash, outcomes, nItems: results.length, counts: statusCounts(results) };
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

/** The skill a candidate is compared with: its stored gate score, its text and its outcomes when known. */
export interface Incumbent {
  score: number;
  skill: string;
  ref: string | null;
  /** How a skip reason names it. */
  label?: "current skill" | "best skill";
}

export interface Comparison {
  /** Gate scores of both sides over the items both answered. */
  candidate: number;
  incumbent: number;
  nItems: number;
  nPaired: number;
  /** Items left out of the comparison, by why (the candidate's reason first). */
  excluded: StatusCounts;
  /** Set when the comparison cannot decide anything: too many items unanswered, or none answered by both. */
  skipReason: string | null;
  /** Per-item gate metric of both sides on the items both answered (without the skill-level density
   * bonus), in item order; null when one side's per-item outcomes are unknown. */
  pairs: PairedItemScore[] | null;
}

/** The gate metric of one item's (hard, soft) outcome. */
function itemGateScore(ctx: RunContext, o: readonly [number, number]): number {
  const ev = ctx.cfg.evaluation;
  return gateScore({ hard: o[0], soft: o[1], metric: ev.gate_metric, mixedWeight: ev.gate_mixed_weight });
}

function pairedItems(ctx: RunContext, own: Outcomes, theirs: Outcomes): PairedItemScore[] {
  const out: PairedItemScore[] = [];
  for (const [id, o] of Object.entries(own)) {
    const t = theirs[id];
    if (Array.isArray(o) && Array.isArray(t))
      out.push({ candidate: itemGateScore(ctx, o), current: itemGateScore(ctx, t) });
  }
  return out;
}

/**
 * Compares a scored candidate with an incumbent on the items both answered. When every item was answered
 * on both sides (or the incumbent's outcomes are unknown) the stored scores are used as they are, so
 * error-free runs decide exactly as before. Skips when more than `evaluation.max_error_share` of the
 * items were unanswered on either side.
 */
export function compareOnSelection(
  ctx: RunContext,
  st: TrainState,
  cand: { sel: SelectionScore; gate: number; skill: string },
  inc: Incumbent,
): Comparison {
  const own = cand.sel.outcomes;
  const theirs = inc.ref === null ? null : (st.selOutcomes[inc.ref] ?? null);
  const counts = own ? statusCounts(own) : cand.sel.counts;
  const sides = {
    candidate: unansweredOf(counts),
    incumbent: theirs ? unansweredOf(statusCounts(theirs)) : null,
    label: inc.label ?? "current skill",
  };
  if (!own || !theirs) {
    // Unknown outcomes on one side: only the candidate's own unanswered items can be counted.
    const n = cand.sel.nItems;
    const out = {
      candidate: cand.gate,
      incumbent: inc.score,
      nItems: n,
      nPaired: n - unansweredOf(counts),
      excluded: counts,
    };
    return { ...out, skipReason: skipReason(ctx, out, sides), pairs: null };
  }
  const p = pairOutcomes(own, theirs);
  const out = p.complete
    ? { candidate: cand.gate, incumbent: inc.score, nItems: p.nItems, nPaired: p.nPaired, excluded: p.excluded }
    : {
        candidate: gateScoreOf(ctx, p.a, cand.skill),
        incumbent: gateScoreOf(ctx, p.b, inc.skill),
        nItems: p.nItems,
        nPaired: p.nPaired,
        excluded: p.excluded,
      };
  return { ...out, skipReason: skipReason(ctx, out, sides), pairs: pairedItems(ctx, own, theirs) };
}

/**
 * Why a comparison cannot decide, or null. It names how many items each side left unanswered, so a
 * user can tell a flaky candidate evaluation from an incumbent whose own evaluation was mostly errors
 * (which no later candidate can get past).
 */
function skipReason(
  ctx: RunContext,
  c: Omit<Comparison, "skipReason" | "pairs">,
  sides: { candidate: number; incumbent: number | null; label: string },
): string | null {
  const left = c.nItems - c.nPaired;
  if (left === 0) return null;
  const bySide = `candidate ${sides.candidate}${sides.incumbent === null ? "" : `, ${sides.label} ${sides.incumbent}`} unanswered`;
  const unanswered = describeUnanswered(c.excluded);
  const why = ` (${unanswered ? `${unanswered}; ` : ""}${bySide})`;
  if (c.nPaired === 0) return `no selection item was answered by both skills${why}`;
  const limit = ctx.cfg.evaluation.max_error_share;
  if (left / c.nItems <= limit) return null;
  return `${left} of ${c.nItems} selection items were not answered by both skills${why}, more than evaluation.max_error_share = ${limit}`;
}
