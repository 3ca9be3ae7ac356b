"use client";
import { memo, useMemo } from "react";
import {
  CartesianGrid,
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
import { AXIS, COLORS, GRID, MARGIN, scoreTick, yTitle, STEP_AXIS } from "./chart-style";
import { EpochLines } from "./EpochLines";
import type { LegendItem } from "./SeriesLegend";
import { scoreDomain, withGateDelta, type StepPoint } from "./chart-data";
import { bandsInRange, pickRows, rangeRows, type ChartWindow, type StepRange } from "./chart-window";
import { StepRangeBar } from "./StepRangeBar";
import { CandidateMarks, DecisionLegend, SelectionTooltip } from "./SelectionMarks";
import { SelectedStepLine } from "./SelectedStepLine";

/** Long runs get a range bar under the chart to zoom every per-step chart into a range of steps. */
export const RANGE_BAR_FROM = 60;
const ACTIVE_DOT = { r: 4 };

/** An A/A noise band: the current skill's repeat scores (lowest to highest) over an epoch's steps. */
export interface NoiseBand {
  x1: number;
  x2: number;
  low: number;
  high: number;
}

const LEGEND: readonly LegendItem[] = [
  { name: "candidate", color: COLORS.candidate, shape: "circle" },
  { name: "best", color: COLORS.best, width: 3.5, opacity: 0.55 },
  { name: "current", color: COLORS.current, width: 1.6, dash: "6 3" },
];

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
  view,
  range,
  onRange,
}: {
  /** Every step of the run; `view` says which of them are drawn (chart-window.ts). */
  points: StepPoint[];
  view: ChartWindow;
  /** The zoomed range of steps (null: the whole run) and its setter (the range bar under the chart). */
  range: StepRange | null;
  onRange: (range: StepRange | null) => void;
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
  const gate = useMemo(() => withGateDelta(points, baseline), [points, baseline]);
  // The lines at the window's steps; the decision marks for every step in its range.
  const data = useMemo(() => pickRows(gate, view), [gate, view]);
  const marked = useMemo(() => rangeRows(gate, view), [gate, view]);
  const markR = marked.length <= 150 ? 2.5 : 1.5;
  const first = marked[0]?.step;
  const last = marked.at(-1)?.step;
  const bands = useMemo(() => bandsInRange(noise, first, last), [noise, first, last]);
  const long = points.length > RANGE_BAR_FROM;
  return (
    <ChartCard
      title="Selection score"
      testId="chart-selection"
      legend={LEGEND}
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
      footer={
        long ? (
          <StepRangeBar first={points[0]!.step} last={points.at(-1)!.step} range={range} onRange={onRange} />
        ) : null
      }
      note={
        long ? (
          <ViewNote
            view={view}
            total={points.length}
            first={first}
            last={last}
            zoomed={range !== null}
            onReset={() => onRange(null)}
          />
        ) : null
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
        margin={MARGIN}
        onClick={(state) => {
          const label = Number(state?.activeLabel);
          if (Number.isFinite(label)) onSelectStep(label);
        }}
        style={{ cursor: "pointer" }}
      >
        <CartesianGrid {...GRID} />
        <XAxis {...STEP_AXIS} />
        <YAxis domain={domain} tickFormatter={scoreTick} label={yTitle("selection score")} {...AXIS} />
        <Tooltip content={<SelectionTooltip />} />
        <EpochLines bounds={epochBounds} />
        {baseline !== null && (
          <ReferenceLine
            y={baseline}
            stroke={COLORS.baseline}
            strokeDasharray="4 4"
            label={{ value: "baseline", position: "insideBottomRight", fontSize: 10, fill: "#6b7280" }}
          />
        )}
        {bands.map((b) => (
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
          stroke={COLORS.candidate}
          strokeWidth={0}
          fill={COLORS.candidate}
          dot={false}
          activeDot={ACTIVE_DOT}
          isAnimationActive={false}
          shape={LeanCurve}
        />
        <CandidateMarks data={marked} r={markR} />
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
      </LineChart>
    </ChartCard>
  );
});

/** What the charts show of a long run: the range, how many points stand for its steps, and a way back. */
function ViewNote({
  view,
  total,
  first,
  last,
  zoomed,
  onReset,
}: {
  view: ChartWindow;
  total: number;
  first: number | undefined;
  last: number | undefined;
  zoomed: boolean;
  onReset: () => void;
}) {
  const int = (n: number) => n.toLocaleString("en-US");
  const drawn = view.thinned
    ? `drawn as ${int(view.keep.length)} points (each span's lowest and highest candidate)`
    : "every step drawn";
  if (!zoomed)
    return (
      <span data-testid="chart-view-note">
        {int(total)} steps, {drawn}
        {view.thinned ? "; narrow the bar above to see every step" : ""}.
      </span>
    );
  return (
    <span data-testid="chart-view-note">
      Steps {first === undefined || last === undefined ? "—" : `${int(first)}–${int(last)}`} of {int(total)}, {drawn}.{" "}
      <button type="button" className="text-indigo-700 underline hover:text-indigo-900" onClick={onReset}>
        Show all steps
      </button>
    </span>
  );
}
