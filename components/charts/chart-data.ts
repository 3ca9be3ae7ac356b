/**
 * Chart series derived from the run's step rows. Pure and cheap; components memoise the result on the
 * `steps` array, which TanStack's structural sharing keeps stable while nothing changed.
 */
import type { StepRow } from "@/lib/contracts/api";

export interface StepPoint {
  step: number;
  epoch: number;
  action: string;
  trainHard: number | null;
  trainSoft: number | null;
  candidate: number | null;
  current: number | null;
  best: number | null;
  budget: number | null;
  proposed: number;
  merged: number;
  selected: number;
  applied: number;
}

export function toStepPoints(steps: readonly StepRow[]): StepPoint[] {
  return steps.map((s) => ({
    step: s.step,
    epoch: s.epoch,
    action: s.action,
    trainHard: s.trainHard,
    trainSoft: s.trainSoft,
    candidate: s.candidateScore,
    current: s.currentScore,
    best: s.bestScore,
    budget: s.budget,
    proposed: s.nFailurePatches + s.nSuccessPatches,
    merged: s.nMerged,
    selected: s.nRanked,
    applied: s.nApplied,
  }));
}

/**
 * TensorBoard-style exponential moving average with debiasing (the first points are not pulled towards 0).
 * `weight` 0 returns the input; nulls stay null and do not advance the average.
 */
export function ema(values: ReadonlyArray<number | null>, weight: number): Array<number | null> {
  if (weight <= 0) return [...values];
  let last = 0;
  let n = 0;
  return values.map((v) => {
    if (v === null || !Number.isFinite(v)) return null;
    last = last * weight + (1 - weight) * v;
    n++;
    return last / (1 - weight ** n);
  });
}

/** Steps at which a new epoch starts (after the first), for vertical reference lines. */
export function epochStarts(points: readonly StepPoint[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < points.length; i++) {
    if (points[i]!.epoch !== points[i - 1]!.epoch) out.push(points[i]!.step);
  }
  return out;
}

/** Score axis: [0, 1] unless values leave it (soft scores of some benchmarks can). */
export function scoreDomain(values: ReadonlyArray<number | null>): [number, number] {
  let lo = 0;
  let hi = 1;
  for (const v of values) {
    if (v === null || !Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** How a gate decision is drawn: an accepted candidate (filled), a rejected one (hollow), or a skip. */
export type Decision = "accepted" | "rejected" | "skipped";

export function decisionOf(action: string): Decision {
  if (action === "accept" || action === "accept_new_best" || action === "force_accept") return "accepted";
  if (action === "reject") return "rejected";
  return "skipped";
}

export interface GatePoint extends StepPoint {
  decision: Decision;
  /** The current skill's score the candidate was compared with (the previous step's, or the baseline). */
  before: number | null;
  /** candidate − before: what the gate saw. */
  delta: number | null;
}

export function withGateDelta(points: readonly StepPoint[], baseline: number | null): GatePoint[] {
  let before = baseline;
  return points.map((p) => {
    const delta = p.candidate !== null && before !== null ? p.candidate - before : null;
    const out = { ...p, decision: decisionOf(p.action), before, delta };
    before = p.current ?? before;
    return out;
  });
}

/** Epoch boundaries with the epoch that starts there, for labelled guide lines. */
export function epochBoundaries(points: readonly StepPoint[]): Array<{ step: number; epoch: number }> {
  const out: Array<{ step: number; epoch: number }> = [];
  for (let i = 1; i < points.length; i++) {
    if (points[i]!.epoch !== points[i - 1]!.epoch) out.push({ step: points[i]!.step, epoch: points[i]!.epoch });
  }
  return out;
}
