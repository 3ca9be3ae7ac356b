"use client";
import { useMemo } from "react";
import type { RunDetail } from "@/lib/contracts/api";
import { EditsChart } from "../charts/EditsChart";
import { SelectionChart } from "../charts/SelectionChart";
import { TestChart } from "../charts/TestChart";
import { TrainChart } from "../charts/TrainChart";
import { epochStarts, toStepPoints } from "../charts/chart-data";

/** The four live charts; series are memoised on the steps array (stable until a step is added). */
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
  // Epoch boundaries as guide lines, unless there are so many that they become noise.
  const bounds = useMemo(() => {
    const starts = epochStarts(points);
    return starts.length <= 20 ? starts : [];
  }, [points]);
  const syncId = `run-${run.id}`;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <SelectionChart
        points={points}
        baseline={run.baselineScore}
        epochBounds={bounds}
        selectedStep={selectedStep}
        onSelectStep={onSelectStep}
        syncId={syncId}
      />
      <TrainChart points={points} epochBounds={bounds} syncId={syncId} />
      <EditsChart points={points} syncId={syncId} />
      <TestChart initial={run.testInitial} best={run.testBest} final={run.testFinal} evalTest={run.config.evaluation.eval_test} />
    </div>
  );
}
