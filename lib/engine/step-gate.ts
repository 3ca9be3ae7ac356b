/**
 * The gate of a training step (spec §7.8): score the candidate on the selection items, compare it with
 * the current and the best skill over the items both answered, and decide — or skip the step when too
 * many items went unanswered to compare anything.
 */
import type { GateReviewOutcome } from "../contracts/events";
import type { RunContext } from "./context";
import { decideGate, type DecideGateOptions, type GateDecision } from "./gate";
import { reviewGate } from "./gate-review";
import { evidenceRecord, evidenceSeed, gateEvidence } from "./gate-evidence";
import { compareOnSelection, gateScoreOf, scoreOnSelection, type Comparison } from "./phases/evaluate";
import { toEvalItem } from "./phases/rollout";
import type { TrainState } from "./state";
import type { GateAction, Item, StepRecord } from "./types";

export interface GateResult {
  action: GateAction | "skip_errors";
  /** The candidate's own gate score (over the items it answered). */
  candidateScore: number;
  /** The comparison with the current skill the decision rests on. */
  vsCurrent: Comparison;
  /** Set when the reject was decided early: the highest hard score the candidate could have reached. */
  earlyUpperBound?: number;
}

/** Step-record fields that say what the scores were taken over. */
export function coverageRecord(c: Comparison, prefix = "selection"): Record<string, number> {
  return {
    [`${prefix}_n`]: c.nItems,
    [`${prefix}_n_paired`]: c.nPaired,
    [`${prefix}_errors`]: c.excluded.nErrors,
    [`${prefix}_timeouts`]: c.excluded.nTimeouts,
    [`${prefix}_truncated`]: c.excluded.nTruncated,
  };
}

export async function scoreAndGate(
  ctx: RunContext,
  st: TrainState,
  opts: { step: number; candidate: string; dir: string; items: Item[]; rec: StepRecord },
): Promise<GateResult> {
  const { step, candidate, rec } = opts;
  const t = ctx.clock.now();
  const sel = await scoreOnSelection(ctx, st, { skill: candidate, dir: opts.dir, items: opts.items, early: true });
  const candScore = gateScoreOf(ctx, sel, candidate);
  (rec.timing as Record<string, number>).evaluate_s = Math.round((ctx.clock.now() - t) / 100) / 10;
  await ctx.emit({
    type: "candidateScored",
    step,
    hard: sel.hard,
    soft: sel.soft,
    gateScore: candScore,
    cached: sel.cached,
    nItems: sel.nItems,
    ...sel.counts,
    results: sel.results.map(toEvalItem),
  });
  const cand = { sel, gate: candScore, skill: candidate };
  const before = st.currentScore ?? 0;
  const cur = compareOnSelection(ctx, st, cand, { score: before, skill: st.currentSkill, ref: st.currentRef });
  let action: GateResult["action"] = "skip_errors";
  let review: GateReviewOutcome | null = null;
  const evidence =
    cur.pairs && cur.skipReason === null && !sel.early
      ? gateEvidence(cur.pairs, { seed: evidenceSeed(ctx.cfg.train.seed, { step }) })
      : null;
  if (sel.early) {
    // evaluation.early_decision: no outcome of the unscored items could avoid a reject (exact decision).
    action = "reject";
    rec.early_decision = {
      decision: "reject",
      exact: true,
      scored: sel.early.scored,
      of: opts.items.length,
      candidate_hard_upper_bound: sel.early.upperBound,
    };
  } else if (cur.skipReason === null) {
    const best = compareOnSelection(ctx, st, cand, { score: st.bestScore ?? 0, skill: st.bestSkill, ref: st.bestRef });
    const gate: DecideGateOptions = {
      candidateScore: candScore,
      currentScore: before,
      bestScore: st.bestScore ?? 0,
      bestStep: st.bestStep,
      step,
      useGate: ctx.cfg.evaluation.use_gate,
      vsCurrent: [cur.candidate, cur.incumbent],
      vsBest: [best.candidate, best.incumbent],
      requireSignificance: ctx.cfg.evaluation.gate_rule === "significant",
      significant: evidence?.significant,
    };
    const auto = decideGate(gate);
    let kept = { decision: auto, skill: candidate, hash: sel.hash };
    if (ctx.cfg.evaluation.human_review !== "off") {
      const r = await reviewGate(ctx, st, {
        step,
        candidate,
        candidateHash: sel.hash,
        auto,
        gate,
        evidence,
        dir: opts.dir,
        items: opts.items,
      });
      kept = r;
      review = r.record;
      rec.review = r.record;
    }
    applyDecision(st, kept.decision, { candidate: kept.skill, hash: kept.hash, step });
    action = kept.decision.action;
  }
  Object.assign(rec, {
    selection_hard: sel.hard,
    selection_soft: sel.soft,
    gate_metric: ctx.plan.gateMetric,
    candidate_gate_score: candScore,
    action,
    ...coverageRecord(cur),
    candidate_paired_score: cur.candidate,
    current_paired_score: cur.incumbent,
  });
  if (cur.skipReason !== null && !sel.early) rec.gate_skip_reason = cur.skipReason;
  if (evidence) rec.gate_evidence = evidenceRecord(evidence);
  await ctx.emit({
    type: "gateDecided",
    step,
    action,
    candidateScore: candScore,
    currentScoreBefore: before,
    currentScore: st.currentScore ?? 0,
    bestScore: st.bestScore ?? 0,
    bestStep: st.bestStep,
    nItems: cur.nItems,
    nPaired: cur.nPaired,
    ...cur.excluded,
    candidatePairedScore: cur.candidate,
    currentPairedScore: cur.incumbent,
    reason: sel.early ? null : cur.skipReason,
    evidence,
    ...(review ? { review } : {}),
  });
  return {
    action,
    candidateScore: candScore,
    vsCurrent: cur,
    ...(sel.early ? { earlyUpperBound: sel.early.upperBound } : {}),
  };
}

function applyDecision(st: TrainState, d: GateDecision, c: { candidate: string; hash: string; step: number }): void {
  if (d.candidateBecomesCurrent) {
    st.currentSkill = c.candidate;
    st.currentScore = d.currentScore;
    st.currentRef = c.hash;
    st.currentOrigin = `step_${String(c.step).padStart(4, "0")}`;
  }
  if (d.candidateBecomesBest) {
    st.bestSkill = c.candidate;
    st.bestScore = d.bestScore;
    st.bestRef = c.hash;
    st.bestStep = d.bestStep;
    st.bestOrigin = st.currentOrigin;
  }
}
