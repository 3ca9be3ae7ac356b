"use client";
import type { RunDetail } from "@/lib/contracts/api";
import { CostScoreChart } from "../charts/CostScoreChart";
import { Notice } from "../ui/Notice";
import { ItemHistory } from "./ItemHistory";
import { VersionBrowser } from "./VersionBrowser";
import { useCostCurve } from "./review-api";

/**
 * The run page's review views below the step detail: score against cost, the skill version browser and
 * every item's history across the run.
 */
export function RunReview({ run, onSelectStep }: { run: RunDetail; onSelectStep: (step: number) => void }) {
  return (
    <div className="space-y-4">
      <CostPanel runId={run.id} stepsDone={run.steps.length} onSelectStep={onSelectStep} />
      <VersionBrowser runId={run.id} stepsDone={run.steps.length} bestHash={run.bestSkillHash} />
      <ItemHistory runId={run.id} stepsDone={run.steps.length} onSelectStep={onSelectStep} />
    </div>
  );
}

function CostPanel({
  runId,
  stepsDone,
  onSelectStep,
}: {
  runId: string;
  stepsDone: number;
  onSelectStep: (step: number) => void;
}) {
  const { data, error } = useCostCurve(runId, true, stepsDone);
  if (error && !data) return <Notice tone="warn">The cost curve could not be loaded: {error.message}</Notice>;
  return <CostScoreChart points={data?.points ?? []} usdNote={data?.usdNote ?? null} onSelectStep={onSelectStep} />;
}
