"use client";
import { useDeferredValue, useMemo, useState } from "react";
import type { RunDetail } from "@/lib/contracts/api";
import { EditsChart } from "../charts/EditsChart";
import { SelectedStepContext } from "../charts/SelectedStepLine";
import { SelectionChart, type ScoreMark } from "../charts/SelectionChart";
import { TestChart } from "../charts/TestChart";
import { TrainChart } from "../charts/TrainChart";
import { useNoiseBands } from "../evidence/use-noise-bands";
import { epochBoundaries, toStepPoints } from "../charts/chart-data";
import { chartWindow, type StepRange } from "../charts/chart-window";

/**
 * The four live charts. Each chart is memoised and gets only values that stay the same object until what
 * it draws changes (series on the steps array, marks on the skill versions), so a re-render of the page (a
 * streamed event, a poll that changed the header) redraws only the charts concerned. A step selection
 * reaches the selection chart's guide line through a context and redraws that line alone.
 *
 * A long run is drawn in at most `MAX_CHART_POINTS` points per line, the same steps on every chart
 * (chart-window.ts); the range bar under the selection chart zooms all of them, down to every step.
 */
export function RunCharts({
  run,
  selectedStep,
  onSelectStep,
}: {
  run: RunDetail;
  selectedStep: number | null;
  onSelectStep: (step: number) => void;
}) {
  const points = useMemo(() => toStepPoints(run.steps), [run.steps]);
  const [range, setRange] = useState<StepRange | null>(null);
  // Dragging the bar moves it at once; the charts follow when the browser has time.
  const shownRange = useDeferredValue(range);
  const whole = useMemo(() => chartWindow(points, null), [points]);
  const view = useMemo(() => (shownRange ? chartWindow(points, shownRange) : whole), [points, shownRange, whole]);
  // Epoch boundaries as guide lines, unless there are so many that they become noise.
  const bounds = useMemo(() => {
    const starts = epochBoundaries(points);
    return starts.length <= 20 ? starts : [];
  }, [points]);
  const syncId = `run-${run.id}`;
  const { skillVersions, bestMeasuredBy, bestScore, bestSkillHash, stepsDone } = run;
  const marks = useMemo(
    () => scoreMarks({ skillVersions, bestMeasuredBy, bestScore, bestSkillHash, stepsDone }),
    [skillVersions, bestMeasuredBy, bestScore, bestSkillHash, stepsDone],
  );
  const noise = useNoiseBands(run);
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <SelectedStepContext value={selectedStep}>
        <SelectionChart
          points={points}
          baseline={run.baselineScore}
          epochBounds={bounds}
          onSelectStep={onSelectStep}
          syncId={syncId}
          marks={marks}
          noise={noise.bands}
          noiseNote={noise.note}
          view={view}
          range={range}
          onRange={setRange}
        />
      </SelectedStepContext>
      <TrainChart points={points} epochBounds={bounds} syncId={syncId} view={view} />
      <EditsChart points={points} syncId={syncId} view={view} />
      <TestChart
        initial={run.testInitial}
        best={run.testBest}
        final={run.testFinal}
        evalTest={run.config.evaluation.eval_test}
      />
    </div>
  );
}

const SLOW_GATE_STATUSES: ReadonlySet<string> = new Set(["accept", "accept_new_best", "reject", "skip_errors"]);

/** Slow-update evaluations and the final selection check: scores measured outside a step's gate. */
export function scoreMarks(
  run: Pick<RunDetail, "skillVersions" | "bestMeasuredBy" | "bestScore" | "bestSkillHash" | "stepsDone">,
): ScoreMark[] {
  const finalCheck = run.bestMeasuredBy === "final_check" && run.bestScore !== null;
  const marks: ScoreMark[] = run.skillVersions
    // Only a gated slow update was scored where it happened (a forced one may be scored later, by the final check).
    .filter(
      (v) =>
        v.kind === "slow_update" &&
        SLOW_GATE_STATUSES.has(v.status ?? "") &&
        (v.gateScore ?? v.selectionHard) !== null &&
        !(finalCheck && v.contentHash === run.bestSkillHash),
    )
    .map((v) => ({
      kind: "slow_update",
      step: v.step,
      score: (v.gateScore ?? v.selectionHard)!,
      label: `slow update e${v.epoch}`,
    }));
  if (finalCheck) marks.push({ kind: "final_check", step: run.stepsDone, score: run.bestScore!, label: "final check" });
  return marks;
}
