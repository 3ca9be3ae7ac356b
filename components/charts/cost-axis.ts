/**
 * The x axis of the score-vs-cost view (pure): dollars when the run's prices are known, else tokens with
 * the reason there are no dollars written on the axis; model calls on request.
 */
import { formatCost, formatCount } from "../format";

export type CostAxis = "usd" | "tokens" | "calls";

/** The axes the picker offers, the default first: dollars only when every point is priced. */
export function costAxesOf(usdNote: string | null): CostAxis[] {
  return usdNote === null ? ["usd", "tokens", "calls"] : ["tokens", "calls"];
}

/** The picker's label of an axis. */
export function costAxisOption(axis: CostAxis): string {
  return axis === "usd" ? "dollars spent" : axis === "tokens" ? "tokens used" : "model calls";
}

/** The axis title: says what is plotted, and that tokens are not dollars when no dollars can be shown. */
export function costAxisTitle(axis: CostAxis, usdNote: string | null): string {
  if (axis === "usd") return "USD spent so far at the run's prices (all model calls)";
  if (axis === "calls") return "model calls so far";
  return usdNote === null ? "tokens used so far (all model calls)" : "tokens used so far — not dollars (see below)";
}

/** The line under the chart: why there are no dollars (null when there are). */
export function costNote(usdNote: string | null): string | null {
  return usdNote === null ? null : `Cost is shown in tokens, not dollars: ${usdNote}.`;
}

/** A tick label on the axis. */
export function costTick(axis: CostAxis, v: number): string {
  return axis === "usd" ? formatCost(v) : formatCount(v);
}
