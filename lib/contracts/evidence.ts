/**
 * Responses of the run page's evidence views: gate decisions with their paired statistics and the A/A noise
 * floor, leakage, skill blame and the proposal explorer. Client-safe: types and tiny pure helpers only.
 */
import type { z } from "zod";
import type { GateEvidenceSchema } from "./events";

export type GateEvidenceView = z.infer<typeof GateEvidenceSchema>;

export interface GateDecisionView {
  /** step: a training step's gate; slow_update: an epoch's slow-update gate; final: the end-of-run check. */
  kind: "step" | "slow_update" | "final";
  /** The step (for a step gate, or the last step before a slow update / the final check). */
  step: number;
  epoch: number | null;
  action: string;
  evidence: GateEvidenceView | null;
}

export interface NoiseFloorView {
  epoch: number;
  scores: number[];
  mean: number;
  sd: number;
  low: number;
  high: number;
  nItems: number;
}

export interface RunEvidence {
  decisions: GateDecisionView[];
  noise: NoiseFloorView[];
  selectionSize: number | null;
  /** Set when the selection split is too small to detect the improvements this run is making. */
  smallSplitWarning: string | null;
}

export interface LeakageReport {
  itemsCompared: number;
  threshold: number;
  duplicates: {
    a: { id: string; split: string };
    b: { id: string; split: string };
    similarity: number;
    exact: boolean;
  }[];
  skills: {
    name: string;
    lines: { line: number; text: string; itemId: string; split: string; kind: "gold" | "question"; match: string }[];
  }[];
}

export interface BlameLineView {
  line: number;
  text: string;
  /** seed | step | epoch_boundary | final_check */
  kind: string;
  /** Plain-words origin (lib/engine/blame.ts describeOrigin). */
  describe: string;
  step: number | null;
  epoch: number | null;
  action: string | null;
  edit: { index: number; op: string; rationale: string; sourceType: string; supportCount: number | null } | null;
  /** The gate evidence of the step that introduced the line. */
  evidence: GateEvidenceView | null;
}

export type ProposalStatus =
  "dropped_at_merge" | "not_selected" | "skipped" | "accepted" | "rejected" | "step_skipped" | "pending";

export interface ProposalRow {
  key: string;
  step: number;
  epoch: number;
  origin: string;
  op: string;
  target: string | null;
  content: string | null;
  rationale: string | null;
  /** Analyst minibatch that proposed it (null for events stored before sources were recorded). */
  source: { batch: number; kind: string; minibatch: number; itemIds: string[] } | null;
  /** Index (1-based) of the merged edit it was carried into (the closest of `mergedInto`); null when dropped. */
  mergedAs: number | null;
  /** Every merged edit (1-based) that combined it. */
  mergedInto: number[];
  /** True when the merge link is a guess by words (a run stored before merge provenance was recorded). */
  mergeGuessed: boolean;
  /** Rank (1-based) among the selected edits; null when not selected. */
  selectedAs: number | null;
  applyStatus: string | null;
  gateStatus: string | null;
  status: ProposalStatus;
  /** A rejected edit fed back through the step buffer: the later edit it shaped, when one matches. */
  shaped: { step: number; key: string } | null;
  /** The reverse link: the rejected edit this one follows up on. */
  shapedBy: { step: number; key: string } | null;
}

export const PROPOSAL_STATUSES: readonly ProposalStatus[] = [
  "accepted",
  "rejected",
  "skipped",
  "not_selected",
  "dropped_at_merge",
  "step_skipped",
  "pending",
];

export interface ProposalFilter {
  status?: ProposalStatus | "";
  op?: string;
  origin?: string;
  step?: number | null;
  text?: string;
}

/** The rows matching every set field of `f` (text: case-insensitive, in op, target, content or rationale). */
export function filterProposals(rows: readonly ProposalRow[], f: ProposalFilter): ProposalRow[] {
  const q = (f.text ?? "").trim().toLowerCase();
  return rows.filter(
    (r) =>
      (!f.status || r.status === f.status) &&
      (!f.op || r.op === f.op) &&
      (!f.origin || r.origin === f.origin) &&
      (f.step === undefined || f.step === null || r.step === f.step) &&
      (q === "" || [r.op, r.target, r.content, r.rationale].some((s) => s?.toLowerCase().includes(q))),
  );
}

const points = (x: number) => `${(Math.abs(x) * 100).toFixed(1)} points`;
export const formatP = (p: number): string => (p < 0.001 ? "< 0.001" : p.toFixed(3));

/** A plain-words reading of a gate's paired statistics. */
export function verdictOf(ev: GateEvidenceView | null): string {
  if (!ev) return "No per-item scores were kept for this decision, so there is nothing to pair.";
  if (ev.nPaired === 0) return "No item was answered by both skills: nothing to compare.";
  const p = `p = ${formatP(ev.pValue)}`;
  if (ev.meanDiff === 0) return `No difference on the ${ev.nPaired} paired items (${p}).`;
  if (ev.meanDiff < 0) return `Candidate worse by ${points(ev.meanDiff)} on ${ev.nPaired} paired items (${p}).`;
  if (ev.significant) return `Candidate better by ${points(ev.meanDiff)} (${p}): unlikely to be chance.`;
  const why =
    ev.minDetectableDiff === null
      ? `${ev.nPaired} items cannot show any difference as significant`
      : ev.meanDiff < ev.minDetectableDiff
        ? `below the ${points(ev.minDetectableDiff)} this split can detect`
        : "too few items changed, or changes went both ways";
  return `Candidate higher by ${points(ev.meanDiff)}, but not significant (${p}): could be chance — ${why}.`;
}
