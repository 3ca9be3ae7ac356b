/**
 * Score against what it cost (pure): after each committed step, the tokens and calls the run had used so
 * far (the engine's per-stage counters in the stepCommitted event) next to the current and best scores,
 * and the dollars those tokens cost when the run's prices are known.
 */
import type { StoredRunEventOf } from "./stored-events";

export interface CostPoint {
  step: number;
  epoch: number;
  calls: number;
  tokens: number;
  /** USD spent so far; null when a price the run needed is unknown (never counted as 0). */
  usd: number | null;
  current: number | null;
  best: number | null;
}

export interface CostCurveResponse {
  points: CostPoint[];
  /** Why the view cannot plot dollars (unknown price, or a free simulated model); null when it can. */
  usdNote: string | null;
}

/** Cumulative per-stage token counts, as the stepCommitted event carries them. */
export type StageTokens = Record<string, { prompt_tokens: number; completion_tokens: number }>;

/** Prices per-stage token counts (the caller knows the run's backends and price table); null = unknown. */
export type PriceTokens = (tokens: StageTokens) => number | null;

/** What a point is read from: a stored stepCommitted event, parsed (lib/contracts/stored-events.ts). */
type CostCurveInput = Pick<
  StoredRunEventOf<"stepCommitted">,
  "step" | "epoch" | "tokens" | "currentScore" | "bestScore"
>;

/** One point from a stepCommitted event, priced when a price function is given. */
export function costPointOf(e: CostCurveInput, price?: PriceTokens): CostPoint {
  let calls = 0;
  let total = 0;
  const byStage: StageTokens = {};
  for (const [name, s] of Object.entries(e.tokens)) {
    calls += s.calls;
    total += s.prompt_tokens + s.completion_tokens;
    byStage[name] = { prompt_tokens: s.prompt_tokens, completion_tokens: s.completion_tokens };
  }
  return {
    step: e.step,
    epoch: e.epoch,
    calls,
    tokens: total,
    usd: price ? price(byStage) : null,
    current: e.currentScore,
    best: e.bestScore,
  };
}

/** Points in step order, one per step (a replayed step's last commit wins). */
export function buildCostCurve(events: readonly CostCurveInput[], price?: PriceTokens): CostPoint[] {
  const byStep = new Map<number, CostPoint>();
  for (const e of events) byStep.set(e.step, costPointOf(e, price));
  return [...byStep.values()].sort((a, b) => a.step - b.step);
}

/** One role of the run as the cost view sees it: whose tokens, and what its price is known to be. */
export interface PricedRole {
  role: "optimizer" | "target";
  backend: string;
  model: string;
  /** "unknown": no price; "free": priced at 0 (the simulated model); "paid": a real price. */
  price: "unknown" | "free" | "paid";
}

/**
 * Why the view cannot plot useful dollars, or null when it can: a price is unknown (a point without
 * dollars, or before the first point a role without a price), or every role is free.
 */
export function usdNoteOf(points: readonly CostPoint[], roles: readonly PricedRole[]): string | null {
  const unknown = points.length > 0 ? points.some((p) => p.usd === null) : roles.some((r) => r.price === "unknown");
  if (unknown) {
    const named = roles
      .filter((r) => r.price === "unknown")
      .map((r) => `${r.backend}:${r.model} (the ${r.role})`)
      .join(" and ");
    return `no price is known for ${named || "a model this run used"}`;
  }
  if (roles.every((r) => r.price === "free") || (points.length > 0 && points.every((p) => p.usd === 0))) {
    return roles.every((r) => r.backend === "sim")
      ? "the simulated model costs nothing"
      : "every call was free at this run's prices";
  }
  return null;
}
