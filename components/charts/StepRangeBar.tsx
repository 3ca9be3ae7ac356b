"use client";
import { memo } from "react";
import { MARGIN } from "./chart-style";
import type { StepRange } from "./chart-window";

/** recharts' default y axis width: the bar starts where the charts' plot areas start. */
const Y_AXIS_WIDTH = 60;

/**
 * The range bar under the selection chart: drag either end (or move it with the arrow keys) to zoom every
 * per-step chart into a range of steps, down to a single pair. Two native range inputs over one track, so
 * it is plain HTML beside the charts, not a chart of its own (a recharts `<Brush>` needed one, ≈50 ms of a
 * 1,000-step run page's load). `range` null is the whole run.
 */
export const StepRangeBar = memo(function StepRangeBar({
  first,
  last,
  range,
  onRange,
}: {
  first: number;
  last: number;
  range: StepRange | null;
  onRange: (range: StepRange | null) => void;
}) {
  const from = Math.max(first, Math.min(range?.from ?? first, last));
  const to = Math.min(last, Math.max(range?.to ?? last, from));
  const span = Math.max(1, last - first);
  const pct = (s: number) => `${(((s - first) / span) * 100).toFixed(3)}%`;
  const set = (a: number, b: number) => onRange(a <= first && b >= last ? null : { from: a, to: b });
  return (
    <div
      className="flex items-center gap-2 text-[11px] text-gray-500 tabular-nums"
      style={{ paddingLeft: MARGIN.left + Y_AXIS_WIDTH - 4, paddingRight: MARGIN.right - 4 }}
      data-testid="step-range"
      data-from={from}
      data-to={to}
    >
      <div className="range-pair relative h-5 flex-1" role="group" aria-label="Steps shown in the charts">
        <div className="absolute inset-x-0 top-1/2 h-2 -translate-y-1/2 rounded bg-gray-100" />
        <div
          className="absolute top-1/2 h-2 -translate-y-1/2 rounded bg-indigo-200"
          style={{ left: pct(from), right: `calc(100% - ${pct(to)})` }}
        />
        <input
          type="range"
          min={first}
          max={last}
          step={1}
          value={from}
          aria-label="First step shown"
          onChange={(e) => set(Math.min(Number(e.target.value), to - 1), to)}
        />
        <input
          type="range"
          min={first}
          max={last}
          step={1}
          value={to}
          aria-label="Last step shown"
          onChange={(e) => set(from, Math.max(Number(e.target.value), from + 1))}
        />
      </div>
    </div>
  );
});
