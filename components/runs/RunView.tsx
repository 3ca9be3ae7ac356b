"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { isApiError } from "../api-client";
import { Notice } from "../ui/Notice";
import { NotFoundPanel } from "../ui/NotFoundPanel";
import { RunCharts } from "./RunCharts";
import { RunHeader } from "./RunHeader";
import { RunSidePanels } from "./RunSidePanels";
import { StepDetailPanel } from "./StepDetailPanel";
import { StepTable } from "./StepTable";
import { useRun } from "./use-run";
import { useRunEvents } from "./use-run-events";

/** `/runs/{id}` — live view of one run. The selected step lives in the URL (`?step=N`). */
export function RunView({ id }: { id: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const { data: run, error, isPending } = useRun(id);
  const stepParam = Number.parseInt(params.get("step") ?? "", 10);
  const latest = run?.steps.at(-1)?.step ?? null;
  const selectedStep = Number.isFinite(stepParam) ? stepParam : latest;
  const { frames, state } = useRunEvents(id, {
    status: run?.status,
    selectedStep,
    lastEventSeq: run?.lastEventSeq,
    unreachable: isApiError(error, 0),
  });

  const selectStep = useCallback(
    (step: number) => {
      const next = new URLSearchParams(params.toString());
      next.set("step", String(step));
      router.replace(`${pathname}?${next}`, { scroll: false });
    },
    [params, pathname, router],
  );

  if (isApiError(error, 404) || isApiError(error, 422)) {
    return <NotFoundPanel title="Run not found" message={`No run has the id “${id}”.`} />;
  }
  if (error && !run)
    return (
      <Notice tone="error" title="Could not load this run">
        {error.message}
      </Notice>
    );
  if (isPending || !run) return <p className="text-gray-500">Loading run…</p>;

  return (
    <div className="space-y-4">
      <RunHeader run={run} streamState={state} />
      {error && <Notice tone="warn">Showing the last loaded data: {error.message}</Notice>}
      <RunCharts run={run} selectedStep={selectedStep} onSelectStep={selectStep} />
      <StepTable steps={run.steps} selectedStep={selectedStep} onSelectStep={selectStep} />
      <StepDetailPanel
        runId={id}
        step={selectedStep}
        isLatest={!Number.isFinite(stepParam)}
        hasSteps={run.steps.length > 0}
      />
      <RunSidePanels run={run} frames={frames} />
    </div>
  );
}
