"use client";
import { useMemo, useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import type { CostPoint } from "@/lib/contracts/cost-curve";
import { formatCount, formatScore } from "../format";
import { ChartCard } from "./ChartCard";
import { AXIS, COLORS, GRID, LEGEND, MARGIN, TOOLTIP_STYLE, scoreTick, xTitle, yTitle } from "./chart-style";
import { scoreDomain } from "./chart-data";

type Axis = "tokens" | "calls";

/** Current and best selection score against the tokens (or calls) the run had used by then. */
export function CostScoreChart({ points, onSelectStep }: { points: CostPoint[]; onSelectStep: (s: number) => void }) {
  const [axis, setAxis] = useState<Axis>("tokens");
  const domain = useMemo(() => scoreDomain(points.flatMap((p) => [p.current, p.best])), [points]);
  return (
    <ChartCard
      title="Score vs cost"
      testId="chart-cost"
      actions={
        <label className="flex items-center gap-1 text-gray-600">
          x axis
          <select
            className="rounded border border-gray-300 bg-white px-1 py-0.5"
            value={axis}
            onChange={(e) => setAxis(e.target.value as Axis)}
          >
            <option value="tokens">tokens used</option>
            <option value="calls">model calls</option>
          </select>
        </label>
      }
      empty={points.length === 0 ? "The cost curve appears when the first step is committed." : null}
    >
      <LineChart
        data={points}
        margin={MARGIN}
        onClick={(state) => {
          const i = Number(state?.activeTooltipIndex);
          const p = Number.isInteger(i) ? points[i] : undefined;
          if (p) onSelectStep(p.step);
        }}
        style={{ cursor: "pointer" }}
      >
        <CartesianGrid {...GRID} />
        <XAxis
          dataKey={axis}
          type="number"
          domain={["dataMin", "dataMax"]}
          tickFormatter={(v: number) => formatCount(v)}
          label={xTitle(axis === "tokens" ? "tokens used so far (all model calls)" : "model calls so far")}
          {...AXIS}
        />
        <YAxis domain={domain} tickFormatter={scoreTick} label={yTitle("selection score")} {...AXIS} />
        <Tooltip
          contentStyle={TOOLTIP_STYLE}
          labelFormatter={(_l, payload) => {
            const p = payload?.[0]?.payload as CostPoint | undefined;
            return p ? `step ${p.step} · ${formatCount(p.tokens)} tokens · ${formatCount(p.calls)} calls` : "";
          }}
          formatter={(v: unknown) => formatScore(typeof v === "number" ? v : null)}
        />
        <Legend {...LEGEND} verticalAlign="top" height={20} />
        <Line
          dataKey="current"
          name="current"
          type="stepAfter"
          stroke={COLORS.current}
          strokeDasharray="6 3"
          strokeWidth={1.6}
          dot={false}
          isAnimationActive={false}
          connectNulls
        />
        <Line
          dataKey="best"
          name="best"
          type="stepAfter"
          stroke={COLORS.best}
          strokeWidth={2}
          dot={points.length <= 60 ? { r: 2 } : false}
          isAnimationActive={false}
          connectNulls
        />
      </LineChart>
    </ChartCard>
  );
}
