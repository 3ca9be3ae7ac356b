"use client";
import { useMemo, useState } from "react";
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import type { CostPoint } from "@/lib/contracts/cost-curve";
import { formatCost, formatCount, formatScore } from "../format";
import { ChartCard } from "./ChartCard";
import { LeanCurve } from "./lean-curve";
import { AXIS, COLORS, GRID, MARGIN, TOOLTIP_STYLE, scoreTick, xTitle, yTitle } from "./chart-style";
import type { LegendItem } from "./SeriesLegend";
import { scoreDomain } from "./chart-data";
import { chartWindow, MAX_CHART_POINTS, pickRows } from "./chart-window";
import { costAxesOf, costAxisOption, costAxisTitle, costNote, costTick, type CostAxis } from "./cost-axis";

const LEGEND: readonly LegendItem[] = [
  { name: "current", color: COLORS.current, width: 1.6, dash: "6 3" },
  { name: "best", color: COLORS.best, width: 2 },
];

/**
 * Current and best selection score against the dollars the run had spent by then — or, when a price is
 * unknown or the model is free, the tokens (the axis title says why) — or the model calls.
 */
export function CostScoreChart({
  points,
  usdNote,
  onSelectStep,
}: {
  points: CostPoint[];
  usdNote: string | null;
  onSelectStep: (s: number) => void;
}) {
  const axes = costAxesOf(usdNote);
  const [picked, setAxis] = useState<CostAxis | null>(null);
  const axis = picked !== null && axes.includes(picked) ? picked : axes[0]!;
  const domain = useMemo(() => scoreDomain(points.flatMap((p) => [p.current, p.best])), [points]);
  // A long run in at most MAX_CHART_POINTS points, each span's lowest and highest current score (chart-window.ts).
  const drawn = useMemo(
    () =>
      pickRows(
        points,
        chartWindow(points, null, MAX_CHART_POINTS, (p) => p.current),
      ),
    [points],
  );
  return (
    <ChartCard
      title="Score vs cost"
      testId="chart-cost"
      legend={LEGEND}
      actions={
        <label className="flex items-center gap-1 text-gray-600">
          x axis
          <select
            className="rounded border border-gray-300 bg-white px-1 py-0.5"
            value={axis}
            onChange={(e) => setAxis(e.target.value as CostAxis)}
            data-testid="cost-axis"
          >
            {axes.map((a) => (
              <option key={a} value={a}>
                {costAxisOption(a)}
              </option>
            ))}
          </select>
        </label>
      }
      empty={points.length === 0 ? "The cost curve appears when the first step is committed." : null}
      note={axis === "calls" ? null : costNote(usdNote)}
    >
      <LineChart
        data={drawn}
        margin={MARGIN}
        onClick={(state) => {
          const i = Number(state?.activeTooltipIndex);
          const p = Number.isInteger(i) ? drawn[i] : undefined;
          if (p) onSelectStep(p.step);
        }}
        style={{ cursor: "pointer" }}
      >
        <CartesianGrid {...GRID} />
        <XAxis
          dataKey={axis}
          type="number"
          domain={["dataMin", "dataMax"]}
          tickFormatter={(v: number) => costTick(axis, v)}
          label={xTitle(costAxisTitle(axis, usdNote))}
          {...AXIS}
        />
        <YAxis domain={domain} tickFormatter={scoreTick} label={yTitle("selection score")} {...AXIS} />
        <Tooltip
          contentStyle={TOOLTIP_STYLE}
          labelFormatter={(_l, payload) => {
            const p = payload?.[0]?.payload as CostPoint | undefined;
            if (!p) return "";
            const usd = p.usd !== null && usdNote === null ? ` · ${formatCost(p.usd)}` : "";
            return `step ${p.step}${usd} · ${formatCount(p.tokens)} tokens · ${formatCount(p.calls)} calls`;
          }}
          formatter={(v: unknown) => formatScore(typeof v === "number" ? v : null)}
        />
        <Line
          dataKey="current"
          name="current"
          type="stepAfter"
          stroke={COLORS.current}
          strokeDasharray="6 3"
          strokeWidth={1.6}
          dot={false}
          isAnimationActive={false}
          shape={LeanCurve}
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
          shape={LeanCurve}
          connectNulls
        />
      </LineChart>
    </ChartCard>
  );
}
