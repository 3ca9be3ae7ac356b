"use client";
import type { RunDetail } from "@/lib/contracts/api";
import { ItemHistory } from "./ItemHistory";
import { VersionBrowser } from "./VersionBrowser";

/** The run page's review views below the step detail: skill versions and per-item history across the run. */
export function RunReview({ run, onSelectStep }: { run: RunDetail; onSelectStep: (step: number) => void }) {
  return (
    <div className="space-y-4">
      <VersionBrowser runId={run.id} stepsDone={run.steps.length} bestHash={run.bestSkillHash} />
      <ItemHistory runId={run.id} stepsDone={run.steps.length} onSelectStep={onSelectStep} />
    </div>
  );
}
