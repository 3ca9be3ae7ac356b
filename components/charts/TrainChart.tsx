"use client";
import { memo, useMemo, useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { ChartCard } from "./ChartCard";
import { LeanCurve } from "./lean-curve";
import {
  AXIS,
  COLORS,
  GRID,
  LEGEND,
  MARGIN,
  TOOLTIP_STYLE,
  scoreTick,
  tooltipScore,
  yTitle,
  STEP_AXIS,
} from "./chart-style";
import { ema, scoreDomain, type StepPoint } from "./chart-data";

const SMOOTHING = [0, 0.6, 0.8, 0.95];

/** (a) Train rollout hard / soft per step, with optional EMA smoothing (raw points stay visible, faint). */
export const TrainChart = memo(function TrainChart({
  points,
  epochBounds,
  syncId,
}: {
  points: StepPoint[];
  epochBounds: number[];
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
    return points.map((p, i) => ({
      step: p.step,
      hardRaw: p.trainHard,
      softRaw: p.trainSoft,
      hard: hard[i],
      soft: soft[i],
    }));
  }, [points, weight]);
  const domain = useMemo(() => scoreDomain(points.flatMap((p) => [p.trainHard, p.trainSoft])), [points]);
  const smoothed = weight > 0;
  const dots = points.length <= 60;
  return (
    <ChartCard
      title="Train rollout"
      testId="chart-train"
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
        <Legend {...LEGEND} verticalAlign="top" height={20} />
        {epochBounds.map((s) => (
          <ReferenceLine key={s} x={s} stroke="#e5e7eb" strokeDasharray="3 3" />
        ))}
        {smoothed && (
          <Line
            dataKey="hardRaw"
            name="hard (raw)"
            stroke={COLORS.hard}
            strokeOpacity={0.25}
            dot={false}
            isAnimationActive={false}
            shape={LeanCurve}
            legendType="none"
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
            legendType="none"
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
