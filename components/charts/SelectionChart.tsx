"use client";
import { useMemo } from "react";
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceArea,
  ReferenceDot,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { ChartCard } from "./ChartCard";
import { AXIS, COLORS, GRID, LEGEND, TOOLTIP_STYLE, scoreTick, tooltipScore } from "./chart-style";
import { scoreDomain, type StepPoint } from "./chart-data";

/** An A/A noise band: the current skill's repeat scores (lowest to highest) over an epoch's steps. */
export interface NoiseBand {
  x1: number;
  x2: number;
  low: number;
  high: number;
}

export interface ScoreMark {
  kind: "slow_update" | "final_check";
  step: number;
  score: number;
  label: string;
}

/**
 * (b) Selection split: each step's candidate score (dots), the current skill's score and the best so far
 * (step lines), with the baseline as a reference line. Clicking a step selects it.
 */
export function SelectionChart({
  points,
  baseline,
  epochBounds,
  selectedStep,
  onSelectStep,
  syncId,
  marks = [],
  noise = [],
}: {
  points: StepPoint[];
  baseline: number | null;
  epochBounds: number[];
  /** Scores measured outside a step's gate: slow-update evaluations and the final selection check. */
  marks?: ScoreMark[];
  /** A/A noise bands (`evaluation.noise_floor_repeats`), one per epoch. */
  noise?: NoiseBand[];
  selectedStep: number | null;
  onSelectStep: (step: number) => void;
  syncId: string;
}) {
  const domain = useMemo(
    () =>
      scoreDomain([baseline, ...points.flatMap((p) => [p.candidate, p.current, p.best]), ...marks.map((m) => m.score)]),
    [points, baseline, marks],
  );
  const dotR = points.length <= 150 ? 2.5 : 1.5;
  return (
    <ChartCard
      title="Selection score"
      testId="chart-selection"
      actions={<span className="text-gray-500">click a step to inspect it</span>}
      empty={
        points.length === 0
          ? baseline === null
            ? "The baseline is scored before the first step."
            : `Baseline ${baseline.toFixed(3)} — step scores appear as steps commit.`
          : null
      }
    >
      <LineChart
        data={points}
        syncId={syncId}
        syncMethod="value"
        margin={{ top: 4, right: 12, bottom: 0, left: -12 }}
        onClick={(state) => {
          const label = Number(state?.activeLabel);
          if (Number.isFinite(label)) onSelectStep(label);
        }}
        style={{ cursor: "pointer" }}
      >
        <CartesianGrid {...GRID} />
        <XAxis dataKey="step" type="number" domain={["dataMin", "dataMax"]} allowDecimals={false} {...AXIS} />
        <YAxis domain={domain} tickFormatter={scoreTick} {...AXIS} />
        <Tooltip formatter={tooltipScore} labelFormatter={(l) => `step ${l}`} contentStyle={TOOLTIP_STYLE} />
        <Legend {...LEGEND} />
        {epochBounds.map((s) => (
          <ReferenceLine key={s} x={s} stroke="#e5e7eb" strokeDasharray="3 3" />
        ))}
        {baseline !== null && (
          <ReferenceLine
            y={baseline}
            stroke={COLORS.baseline}
            strokeDasharray="4 4"
            label={{ value: "baseline", position: "insideBottomRight", fontSize: 10, fill: "#6b7280" }}
          />
        )}
        {noise.map((b) => (
          <ReferenceArea
            key={`noise-${b.x1}`}
            x1={b.x1}
            x2={b.x2}
            y1={b.low}
            y2={b.high}
            fill={COLORS.current}
            fillOpacity={0.15}
            stroke={COLORS.current}
            strokeOpacity={0.4}
            ifOverflow="extendDomain"
          />
        ))}
        {selectedStep !== null && (
          <ReferenceLine x={selectedStep} stroke="#a5b4fc" strokeWidth={2} strokeOpacity={0.6} />
        )}
        <Line
          dataKey="candidate"
          name="candidate"
          legendType="circle"
          stroke={COLORS.candidate}
          strokeWidth={0}
          fill={COLORS.candidate}
          dot={{ r: dotR, fill: COLORS.candidate, stroke: "none" }}
          activeDot={{ r: 4 }}
          isAnimationActive={false}
        />
        <Line
          dataKey="current"
          name="current"
          stroke={COLORS.current}
          strokeWidth={1.6}
          dot={false}
          isAnimationActive={false}
          connectNulls
        />
        <Line
          dataKey="best"
          name="best"
          stroke={COLORS.best}
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
          connectNulls
        />
        {marks.map((m) => (
          <ReferenceDot
            key={`${m.kind}-${m.step}`}
            x={m.step}
            y={m.score}
            r={5}
            fill={m.kind === "final_check" ? COLORS.best : "#ffffff"}
            stroke={COLORS.best}
            strokeWidth={2}
            label={{ value: m.label, position: "top", fontSize: 10, fill: "#374151" }}
          />
        ))}
      </LineChart>
    </ChartCard>
  );
}
