/** Shared chart styling: axes, grid, legend, tooltip, series colours and tick formatting. */
export const AXIS = { fontSize: 11, stroke: "#9ca3af", tickLine: false } as const;
/**
 * Horizontal grid lines only. recharts computes the vertical lines' places even when it draws none, from a
 * tick per data point whose label it measures in the page (a forced layout each: ≈430 on a 1,000-step chart,
 * ≈60 ms of the run page's load); an empty generator skips that.
 */
export const GRID = { stroke: "#f3f4f6", vertical: false, verticalCoordinatesGenerator: () => [] } as const;
/** Score ticks: 0, 0.25, 0.5 … printed without rounding them into lies (0.25 is not "0.3"). */
export const scoreTick = (v: number) => String(Number(v.toFixed(2)));
export const TOOLTIP_STYLE = { fontSize: 12, padding: "6px 8px", borderRadius: 6 } as const;

export const COLORS = {
  hard: "#4f46e5",
  soft: "#0ea5e9",
  candidate: "#f59e0b",
  current: "#6366f1",
  best: "#059669",
  baseline: "#9ca3af",
  budget: "#6b7280",
  proposed: "#a855f7",
  merged: "#0ea5e9",
  selected: "#f59e0b",
  applied: "#059669",
} as const;

export function tooltipScore(v: unknown): string {
  return typeof v === "number" ? v.toFixed(3) : "—";
}

/** One colour per run when runs are overlaid. */
export const RUN_COLORS = ["#4f46e5", "#059669", "#f59e0b", "#dc2626", "#0ea5e9", "#a855f7", "#64748b", "#db2777"];

/** Room for the axis titles. */
export const MARGIN = { top: 4, right: 12, bottom: 14, left: 6 } as const;
/** An axis title (recharts label props): below the x axis, along the y axis. */
export const xTitle = (value: string) =>
  ({ value, position: "insideBottom", offset: -8, fontSize: 11, fill: "#6b7280" }) as const;
export const yTitle = (value: string) =>
  ({ value, angle: -90, position: "insideLeft", offset: 12, fontSize: 11, fill: "#6b7280", dy: 40 }) as const;
/** The step axis shared by every per-step chart: whole steps from the first to the last, titled. */
export const STEP_AXIS = {
  dataKey: "step",
  type: "number",
  domain: ["dataMin", "dataMax"],
  allowDecimals: false,
  label: xTitle("step"),
  ...AXIS,
} as const;
