/**
 * Score against what it cost (pure): after each committed step, the tokens and calls the run had used so
 * far (the engine's per-stage counters in the stepCommitted event) next to the current and best scores.
 */

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

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** One point from a stepCommitted payload; null when the payload has no token counters. */
export function costPointOf(payload: Record<string, unknown>): CostPoint | null {
  const step = num(payload.step);
  const tokens = payload.tokens;
  if (step === null || tokens === null || typeof tokens !== "object") return null;
  let calls = 0;
  let total = 0;
  for (const stage of Object.values(tokens as Record<string, unknown>)) {
    if (!stage || typeof stage !== "object") continue;
    const s = stage as Record<string, unknown>;
    calls += num(s.calls) ?? 0;
    total += (num(s.prompt_tokens) ?? 0) + (num(s.completion_tokens) ?? 0);
  }
  return {
    step,
    epoch: num(payload.epoch) ?? 0,
    calls,
    tokens: total,
    current: num(payload.currentScore),
    best: num(payload.bestScore),
  };
}

/** Points in step order, one per step (a replayed step's last commit wins). */
export function buildCostCurve(payloads: readonly Record<string, unknown>[]): CostPoint[] {
  const byStep = new Map<number, CostPoint>();
  for (const p of payloads) {
    const pt = costPointOf(p);
    if (pt) byStep.set(pt.step, pt);
  }
  return [...byStep.values()].sort((a, b) => a.step - b.step);
}
