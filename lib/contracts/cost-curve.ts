/**
 * Score against what it cost (pure): after each committed step, the tokens and calls the run had used so
 * far (the engine's per-stage counters in the stepCommitted event) next to the current and best scores.
 */
import type { StoredRunEventOf } from "./stored-events";

export interface CostPoint {
  step: number;
  epoch: number;
  calls: number;
  tokens: number;
  current: number | null;
  best: number | null;
}

export interface CostCurveResponse {
  points: CostPoint[];
}

/** What a point is read from: a stored stepCommitted event, parsed (lib/contracts/stored-events.ts). */
type CostCurveInput = Pick<
  StoredRunEventOf<"stepCommitted">,
  "step" | "epoch" | "tokens" | "currentScore" | "bestScore"
>;

/** One point from a stepCommitted event. */
export function costPointOf(e: CostCurveInput): CostPoint {
  let calls = 0;
  let total = 0;
  for (const s of Object.values(e.tokens)) {
    calls += s.calls;
    total += s.prompt_tokens + s.completion_tokens;
  }
  return { step: e.step, epoch: e.epoch, calls, tokens: total, current: e.currentScore, best: e.bestScore };
}

/** Points in step order, one per step (a replayed step's last commit wins). */
export function buildCostCurve(events: readonly CostCurveInput[]): CostPoint[] {
  const byStep = new Map<number, CostPoint>();
  for (const e of events) byStep.set(e.step, costPointOf(e));
  return [...byStep.values()].sort((a, b) => a.step - b.step);
}
