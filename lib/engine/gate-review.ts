/**
 * Human review at the gate (`evaluation.human_review`). After the automatic decision, the engine asks the
 * injected reviewer port. A decision is stored under the step (`gate_review.json`) the moment it arrives,
 * so a resumed step replays it without asking again. No answer yet → `ReviewPendingError`: the run stops
 * at this gate, and a later attempt re-runs the step from its memos (no model call is paid twice) and asks
 * again. `ask` takes `human_review_fallback` once the port says the wait expired; `required` never does.
 */
import type { GateReviewOutcome } from "../contracts/events";
import type { RunConfig } from "../contracts/run-config";
import { EngineError, stepDir, type RunContext } from "./context";
import { decideGate, type DecideGateOptions, type GateDecision } from "./gate";
import type { GateEvidence } from "./gate-evidence";
import { compareOnSelection, gateScoreOf, scoreOnSelection } from "./phases/evaluate";
import type { GateReviewAnswer } from "./ports";
import type { TrainState } from "./state";
import type { GateAction, Item } from "./types";

type Evaluation = RunConfig["evaluation"];
export type ReviewMode = Exclude<Evaluation["human_review"], "off">;

/** Thrown when the gate waits for a reviewer; the run can resume from its checkpoint once one answered. */
export class ReviewPendingError extends Error {
  readonly step: number;
  readonly mode: ReviewMode;
  constructor(step: number, mode: ReviewMode) {
    super(`step ${step} waits for a human review of its candidate`);
    this.name = "ReviewPendingError";
    this.step = step;
    this.mode = mode;
  }
}

/** A settled review: what was decided, by whom (a reviewer, or the `ask` timeout's fallback). */
export interface ReviewOutcome {
  decision: "accept" | "reject" | "edit" | "gate";
  source: "reviewer" | "timeout";
  note: string;
  author: string;
  editedSkill?: string;
}

/** The outcome an answer settles, or null while the review is still open. */
export function resolveReviewAnswer(
  mode: ReviewMode,
  fallback: Evaluation["human_review_fallback"],
  answer: GateReviewAnswer,
): ReviewOutcome | null {
  if (answer.kind === "decided") {
    if (answer.decision === "edit" && !answer.editedSkill?.trim())
      throw new EngineError("an edit-then-accept review needs the edited skill text", "editedSkill");
    return {
      decision: answer.decision,
      source: "reviewer",
      note: answer.note,
      author: answer.author,
      ...(answer.decision === "edit" ? { editedSkill: answer.editedSkill } : {}),
    };
  }
  if (answer.kind === "expired" && mode === "ask") {
    return { decision: fallback, source: "timeout", note: "", author: "" };
  }
  return null;
}

const acceptAction = (d: GateDecision): GateAction => (d.candidateBecomesBest ? "accept_new_best" : "accept");

/** An accepted candidate becomes current; it becomes best only when it beats the best (as the gate's rule). */
function accepted(opts: DecideGateOptions): GateDecision {
  const d = decideGate({ ...opts, useGate: false });
  return { ...d, action: acceptAction(d) };
}

function rejected(opts: DecideGateOptions): GateDecision {
  return {
    action: "reject",
    currentScore: opts.currentScore,
    bestScore: opts.bestScore,
    bestStep: opts.bestStep,
    candidateBecomesCurrent: false,
    candidateBecomesBest: false,
  };
}

export interface ReviewedGate {
  decision: GateDecision;
  /** The skill the decision is about: the candidate, or the reviewer's edited text. */
  skill: string;
  hash: string;
  /** Stored in the step record (`review`), shown on the run page and in EDITS.md. */
  record: GateReviewOutcome | null;
}

async function settle(ctx: RunContext, step: number, ask: () => Promise<GateReviewAnswer>): Promise<ReviewOutcome> {
  const key = `${stepDir(step)}/gate_review.json`;
  const memo = await ctx.store.getJson<ReviewOutcome>(key);
  if (memo) return memo;
  const mode = ctx.cfg.evaluation.human_review;
  if (mode === "off") throw new Error("settle() called with human_review off");
  if (!ctx.reviewer) {
    throw new EngineError(
      "evaluation.human_review is on but nothing can answer a review here (the dashboard's worker can)",
      "evaluation.human_review",
    );
  }
  const outcome = resolveReviewAnswer(mode, ctx.cfg.evaluation.human_review_fallback, await ask());
  if (!outcome) throw new ReviewPendingError(step, mode);
  await ctx.store.putJson(key, outcome);
  return outcome;
}

/**
 * The gate's decision after review. `auto` is the automatic decision and `gate` the options it came from;
 * an edited skill is scored on the selection items (cached by hash) and compared with the best like any
 * accepted candidate.
 */
export async function reviewGate(
  ctx: RunContext,
  st: TrainState,
  opts: {
    step: number;
    candidate: string;
    candidateHash: string;
    auto: GateDecision;
    gate: DecideGateOptions;
    evidence: GateEvidence | null;
    dir: string;
    items: Item[];
  },
): Promise<ReviewedGate> {
  const { step, auto, gate } = opts;
  const ev = ctx.cfg.evaluation;
  const outcome = await settle(ctx, step, () =>
    ctx.reviewer!.answer({
      step,
      mode: ev.human_review as ReviewMode,
      timeoutS: ev.human_review_timeout_s,
      currentSkill: st.currentSkill,
      candidate: opts.candidate,
      candidateHash: opts.candidateHash,
      automatic: auto.action,
      candidateScore: gate.candidateScore,
      currentScore: gate.currentScore,
      bestScore: gate.bestScore,
      evidence: opts.evidence,
    }),
  );
  let out: ReviewedGate = { decision: auto, skill: opts.candidate, hash: opts.candidateHash, record: null };
  if (outcome.decision === "accept") out = { ...out, decision: accepted(gate) };
  else if (outcome.decision === "reject") out = { ...out, decision: rejected(gate) };
  else if (outcome.decision === "edit") out = await acceptEdited(ctx, st, { ...opts, edited: outcome.editedSkill! });
  out.record = {
    decision: outcome.decision,
    source: outcome.source,
    automatic: auto.action,
    action: out.decision.action,
    note: outcome.note,
    author: outcome.author,
    ...(outcome.decision === "edit" ? { edited_hash: out.hash, edited_score: out.decision.currentScore } : {}),
  };
  return out;
}

async function acceptEdited(
  ctx: RunContext,
  st: TrainState,
  opts: { step: number; gate: DecideGateOptions; dir: string; items: Item[]; edited: string },
): Promise<ReviewedGate> {
  const sel = await scoreOnSelection(ctx, st, { skill: opts.edited, dir: `${opts.dir}_review`, items: opts.items });
  const score = gateScoreOf(ctx, sel, opts.edited);
  const vsBest = compareOnSelection(
    ctx,
    st,
    { sel, gate: score, skill: opts.edited },
    { score: st.bestScore ?? 0, skill: st.bestSkill, ref: st.bestRef },
  );
  const decision = accepted({
    ...opts.gate,
    candidateScore: score,
    vsCurrent: undefined,
    vsBest: [vsBest.candidate, vsBest.incumbent],
  });
  return { decision, skill: opts.edited, hash: sel.hash, record: null };
}
