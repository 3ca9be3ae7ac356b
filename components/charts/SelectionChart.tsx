"use client";
import { memo, useMemo } from "react";
import {
  Brush,
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
import { LeanCurve } from "./lean-curve";
import { AXIS, COLORS, GRID, LEGEND, MARGIN, epochLabel, scoreTick, yTitle, STEP_AXIS } from "./chart-style";
import { scoreDomain, withGateDelta, type StepPoint } from "./chart-data";
import { CandidateMarks, DecisionLegend, SelectionTooltip } from "./SelectionMarks";
import { SelectedStepLine } from "./SelectedStepLine";

/** Long runs get a brush under the chart to zoom into a range of steps. */
export const BRUSH_FROM = 60;
const ACTIVE_DOT = { r: 4 };

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
 * (b) Selection split: each step's candidate score (marks: filled accepted, hollow rejected), the current
 * skill's score (dashed) and the best so far, the baseline, labelled epoch boundaries and slow-update
 * marks; the tooltip gives the decision and the delta the gate saw; a click opens the step. The selected
 * step's guide line reads `SelectedStepContext`, so a selection does not redraw the chart.
 */
export const SelectionChart = memo(function SelectionChart({
  points,
  baseline,
  epochBounds,
  onSelectStep,
  syncId,
  marks = [],
  noise = [],
  noiseNote = null,
}: {
  points: StepPoint[];
  baseline: number | null;
  epochBounds: Array<{ step: number; epoch: number }>;
  /** Scores measured outside a step's gate: slow-update evaluations and the final selection check. */
  marks?: ScoreMark[];
  /** A/A noise bands (`evaluation.noise_floor_repeats`), one per epoch. */
  noise?: NoiseBand[];
  /** Said instead of drawing a band of zero width (a deterministic target has no run-to-run noise). */
  noiseNote?: string | null;
  onSelectStep: (step: number) => void;
  syncId: string;
}) {
  const domain = useMemo(
    () =>
      scoreDomain([baseline, ...points.flatMap((p) => [p.candidate, p.current, p.best]), ...marks.map((m) => m.score)]),
    [points, baseline, marks],
  );
  const markR = points.length <= 150 ? 2.5 : 1.5;
  const data = useMemo(() => withGateDelta(points, baseline), [points, baseline]);
  return (
    <ChartCard
      title="Selection score"
      testId="chart-selection"
      actions={
        noiseNote ? (
          <span className="flex items-center gap-3">
            <span className="text-xs text-gray-500" data-testid="noise-note">
              A/A band: {noiseNote}
            </span>
            <DecisionLegend />
          </span>
        ) : (
          <DecisionLegend />
        )
      }
      empty={
        points.length === 0
          ? baseline === null
            ? "The baseline is scored before the first step."
            : `Baseline ${baseline.toFixed(3)} — step scores appear as steps commit.`
          : null
      }
    >
      <LineChart
        data={data}
        syncId={syncId}
        syncMethod="value"
        margin={points.length > BRUSH_FROM ? { ...MARGIN, bottom: 34 } : MARGIN}
        onClick={(state) => {
          const label = Number(state?.activeLabel);
          if (Number.isFinite(label)) onSelectStep(label);
        }}
        style={{ cursor: "pointer" }}
      >
        <CartesianGrid {...GRID} />
        <XAxis {...STEP_AXIS} label={points.length > BRUSH_FROM ? undefined : STEP_AXIS.label} />
        <YAxis domain={domain} tickFormatter={scoreTick} label={yTitle("selection score")} {...AXIS} />
        <Tooltip content={<SelectionTooltip />} />
        <Legend {...LEGEND} verticalAlign="top" height={20} />
        {epochBounds.map((b) => (
          <ReferenceLine key={b.step} x={b.step} stroke="#d1d5db" strokeDasharray="3 3" label={epochLabel(b.epoch)} />
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
        <SelectedStepLine />
        <Line
          dataKey="candidate"
          name="candidate"
          legendType="circle"
          stroke={COLORS.candidate}
          strokeWidth={0}
          fill={COLORS.candidate}
          dot={false}
          activeDot={ACTIVE_DOT}
          isAnimationActive={false}
          shape={LeanCurve}
        />
        <CandidateMarks data={data} r={markR} />
        <Line
          dataKey="best"
          name="best"
          stroke={COLORS.best}
          strokeWidth={3.5}
          strokeOpacity={0.55}
          dot={false}
          isAnimationActive={false}
          shape={LeanCurve}
          connectNulls
        />
        <Line
          dataKey="current"
          name="current"
          stroke={COLORS.current}
          strokeWidth={1.6}
          strokeDasharray="6 3"
          dot={false}
          isAnimationActive={false}
          shape={LeanCurve}
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
            label={{
              value: m.label,
              // The last step's mark sits on the chart's right edge: its label goes to the left.
              position: m.step >= (points.at(-1)?.step ?? 0) ? "left" : "top",
              fontSize: 10,
              fill: "#374151",
            }}
          />
        ))}
        {points.length > BRUSH_FROM && <Brush dataKey="step" height={16} travellerWidth={8} stroke="#a5b4fc" />}
      </LineChart>
    </ChartCard>
  );
});
