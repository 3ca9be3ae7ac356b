"use client";
import { memo } from "react";
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { ChartCard } from "./ChartCard";
import { LeanCurve } from "./lean-curve";
import { AXIS, COLORS, GRID, LEGEND, MARGIN, TOOLTIP_STYLE, yTitle, STEP_AXIS } from "./chart-style";
import type { StepPoint } from "./chart-data";

/** (d) The scheduled edit budget against the edits proposed, merged, selected (ranked) and applied per step. */
export const EditsChart = memo(function EditsChart({ points, syncId }: { points: StepPoint[]; syncId: string }) {
  const dots = points.length <= 60;
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
      empty={points.length === 0 ? "Edit counts appear when the first step is committed." : null}
    >
      <LineChart data={points} syncId={syncId} syncMethod="value" margin={MARGIN}>
        <CartesianGrid {...GRID} />
        <XAxis {...STEP_AXIS} />
        <YAxis allowDecimals={false} label={yTitle("edits")} {...AXIS} />
        <Tooltip labelFormatter={(l) => `step ${l}`} contentStyle={{ ...TOOLTIP_STYLE }} />
        <Legend {...LEGEND} verticalAlign="top" height={20} />
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
