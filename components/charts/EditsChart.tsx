"use client";
import { memo, useMemo } from "react";
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { ChartCard } from "./ChartCard";
import { LeanCurve } from "./lean-curve";
import { AXIS, COLORS, GRID, MARGIN, TOOLTIP_STYLE, yTitle, STEP_AXIS } from "./chart-style";
import type { LegendItem } from "./SeriesLegend";

const LEGEND: readonly LegendItem[] = [
  { name: "budget", color: COLORS.budget, width: 1.6, dash: "5 3" },
  { name: "proposed", color: COLORS.proposed, width: 1.6 },
  { name: "merged", color: COLORS.merged, width: 1.6 },
  { name: "applied", color: COLORS.applied, width: 1.6 },
  { name: "selected", color: COLORS.selected, width: 1.6, dash: "4 3" },
];
import type { StepPoint } from "./chart-data";
import { pickRows, type ChartWindow } from "./chart-window";

/** (d) The scheduled edit budget against the edits proposed, merged, selected (ranked) and applied per step. */
export const EditsChart = memo(function EditsChart({
  points,
  syncId,
  view,
}: {
  points: StepPoint[];
  syncId: string;
  /** The steps drawn (chart-window.ts). */
  view: ChartWindow;
}) {
  const dots = points.length <= 60;
  const data = useMemo(() => pickRows(points, view), [points, view]);
  // Series often coincide (selected = applied when every edit applies): dashes keep both visible.
  const line = (key: keyof StepPoint, name: string, color: string, dash?: string) => (
    <Line
      dataKey={key}
      name={name}
      stroke={color}
      strokeWidth={1.6}
      strokeDasharray={dash}
      dot={dots ? { r: 2 } : false}
      isAnimationActive={false}
      shape={LeanCurve}
    />
  );
  return (
    <ChartCard
      title="Edits per step"
      testId="chart-edits"
      legend={LEGEND}
      empty={points.length === 0 ? "Edit counts appear when the first step is committed." : null}
    >
      <LineChart data={data} syncId={syncId} syncMethod="value" margin={MARGIN}>
        <CartesianGrid {...GRID} />
        <XAxis {...STEP_AXIS} />
        <YAxis allowDecimals={false} label={yTitle("edits")} {...AXIS} />
        <Tooltip labelFormatter={(l) => `step ${l}`} contentStyle={{ ...TOOLTIP_STYLE }} />
        <Line
          dataKey="budget"
          name="budget"
          type="stepAfter"
          stroke={COLORS.budget}
          strokeDasharray="5 3"
          strokeWidth={1.6}
          dot={false}
          isAnimationActive={false}
          shape={LeanCurve}
          connectNulls
        />
        {line("proposed", "proposed", COLORS.proposed)}
        {line("merged", "merged", COLORS.merged)}
        {line("applied", "applied", COLORS.applied)}
        {line("selected", "selected", COLORS.selected, "4 3")}
      </LineChart>
    </ChartCard>
  );
});
