"use client";
import type { RunDetail } from "@/lib/contracts/api";
import { ItemHistory } from "./ItemHistory";

/** The run page's review views below the step detail: per-item history across the run. */
export function RunReview({ run, onSelectStep }: { run: RunDetail; onSelectStep: (step: number) => void }) {
  return (
    <div className="space-y-4">
      <ItemHistory runId={run.id} stepsDone={run.steps.length} onSelectStep={onSelectStep} />
    </div>
  );
}
