"use client";
import { memo, useMemo, useState } from "react";
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { ChartCard } from "./ChartCard";
import { LeanCurve } from "./lean-curve";
import { AXIS, COLORS, GRID, MARGIN, TOOLTIP_STYLE, scoreTick, tooltipScore, yTitle, STEP_AXIS } from "./chart-style";
import { ema, scoreDomain, type StepPoint } from "./chart-data";
import { EpochLines } from "./EpochLines";
import { pickRows, type ChartWindow } from "./chart-window";
import type { LegendItem } from "./SeriesLegend";

const SMOOTHING = [0, 0.6, 0.8, 0.95];
const LEGEND: readonly LegendItem[] = [
  { name: "hard", color: COLORS.hard, width: 1.8 },
  { name: "soft", color: COLORS.soft, width: 1.8, dash: "5 3" },
];

/** (a) Train rollout hard / soft per step, with optional EMA smoothing (raw points stay visible, faint). */
export const TrainChart = memo(function TrainChart({
  points,
  epochBounds,
  syncId,
  view,
}: {
  /** Every step; the averages run over all of them, and `view` picks the steps drawn (chart-window.ts). */
  points: StepPoint[];
  view: ChartWindow;
  epochBounds: ReadonlyArray<{ step: number; epoch: number }>;
  syncId: string;
}) {
  // TensorBoard's default: a light EMA, with the raw points drawn faintly underneath.
  const [weight, setWeight] = useState(0.6);
  const data = useMemo(() => {
    const hard = ema(
      points.map((p) => p.trainHard),
      weight,
    );
    const soft = ema(
      points.map((p) => p.trainSoft),
      weight,
    );
    const rows = points.map((p, i) => ({
      step: p.step,
      hardRaw: p.trainHard,
      softRaw: p.trainSoft,
      hard: hard[i],
      soft: soft[i],
    }));
    return pickRows(rows, view);
  }, [points, weight, view]);
  const domain = useMemo(() => scoreDomain(points.flatMap((p) => [p.trainHard, p.trainSoft])), [points]);
  const smoothed = weight > 0;
  const dots = points.length <= 60;
  return (
    <ChartCard
      title="Train rollout"
      testId="chart-train"
      legend={LEGEND}
      empty={points.length === 0 ? "Train scores appear when the first step is committed." : null}
      actions={
        <label className="flex items-center gap-1 text-gray-600">
          Smoothing
          <select
            className="rounded border border-gray-300 bg-white px-1 py-0.5"
            value={weight}
            onChange={(e) => setWeight(Number(e.target.value))}
          >
            {SMOOTHING.map((w) => (
              <option key={w} value={w}>
                {w === 0 ? "off" : w}
              </option>
            ))}
          </select>
        </label>
      }
    >
      <LineChart data={data} syncId={syncId} syncMethod="value" margin={MARGIN}>
        <CartesianGrid {...GRID} />
        <XAxis {...STEP_AXIS} />
        <YAxis domain={domain} tickFormatter={scoreTick} label={yTitle("train score")} {...AXIS} />
        <Tooltip formatter={tooltipScore} labelFormatter={(l) => `step ${l}`} contentStyle={TOOLTIP_STYLE} />
        <EpochLines bounds={epochBounds} labelled={false} stroke="#e5e7eb" />
        {smoothed && (
          <Line
            dataKey="hardRaw"
            name="hard (raw)"
            stroke={COLORS.hard}
            strokeOpacity={0.25}
            dot={false}
            isAnimationActive={false}
            shape={LeanCurve}
            connectNulls
          />
        )}
        {smoothed && (
          <Line
            dataKey="softRaw"
            name="soft (raw)"
            stroke={COLORS.soft}
            strokeOpacity={0.25}
            dot={false}
            isAnimationActive={false}
            shape={LeanCurve}
            connectNulls
          />
        )}
        <Line
          dataKey="hard"
          name="hard"
          stroke={COLORS.hard}
          strokeWidth={1.8}
          dot={dots ? { r: 2 } : false}
          isAnimationActive={false}
          shape={LeanCurve}
          connectNulls
        />
        <Line
          dataKey="soft"
          name="soft"
          stroke={COLORS.soft}
          strokeWidth={1.8}
          strokeDasharray="5 3"
          dot={dots ? { r: 2 } : false}
          isAnimationActive={false}
          shape={LeanCurve}
          connectNulls
        />
      </LineChart>
    </ChartCard>
  );
});
