"use client";
import { usePathname, useSearchParams } from "next/navigation";
import { memo, useCallback, useRef } from "react";
import { isApiError } from "../api-client";
import { EvidenceSection } from "../evidence/EvidenceSection";
import { Notice } from "../ui/Notice";
import { NotFoundPanel } from "../ui/NotFoundPanel";
import { Deferred } from "./Deferred";
import { GateReviewPanel } from "./GateReviewPanel";
import { RunReview } from "../review/RunReview";
import { RunCharts } from "./RunCharts";
import { RunHeader } from "./RunHeader";
import { RunSidePanels } from "./RunSidePanels";
import { StepDetailPanel } from "./StepDetailPanel";
import { StepTable } from "./StepTable";
import { TransferMatrixPanel } from "./TransferMatrixPanel";
import { openingStep } from "./opening-step";
import { usePrefetchStep, useRun } from "./use-run";
import { useRunEvents } from "./use-run-events";
import { revealAfterRender } from "./reveal";

// Panels from other folders, memoised here: selecting a step (a URL change) redraws none of them.
const ReviewPanels = memo(RunReview);
const Evidence = memo(EvidenceSection);

/**
 * `/runs/{id}` — live view of one run. The selected step lives in the URL (`?step=N`). `latestStep` is the
 * run's latest committed step when the server rendered the page (null before the first): the step detail
 * the page opens on is asked for together with the run detail, not after it.
 */
export function RunView({ id, latestStep = null }: { id: string; latestStep?: number | null }) {
  const pathname = usePathname();
  const params = useSearchParams();
  const { data: run, error, isPending } = useRun(id);
  const stepParam = Number.parseInt(params.get("step") ?? "", 10);
  usePrefetchStep(id, openingStep(params.get("step"), latestStep));
  const latest = run?.steps.at(-1)?.step ?? null;
  const selectedStep = Number.isFinite(stepParam) ? stepParam : latest;
  const { state } = useRunEvents(id, {
    status: run?.status,
    selectedStep,
    lastEventSeq: run?.lastEventSeq,
    unreachable: isApiError(error, 0),
  });
  const detailRef = useRef<HTMLDivElement>(null);

  // Stable across selections (it reads the query string when called), so memoised panels that take it are
  // not redrawn just because the URL changed. The browser's history API, not router.replace: the URL and
  // useSearchParams follow, and the server does not render the page again for every click.
  const selectStep = useCallback(
    (step: number) => {
      const next = new URLSearchParams(window.location.search);
      next.set("step", String(step));
      window.history.replaceState(null, "", `${pathname}?${next}`);
      // A click on a step row or a chart point brings the step's detail into view (it sits below them).
      revealAfterRender(() => detailRef.current);
    },
    [pathname],
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
      <GateReviewPanel runId={id} status={run.status} />
      <RunCharts run={run} selectedStep={selectedStep} onSelectStep={selectStep} />
      <StepTable steps={run.steps} selectedStep={selectedStep} onSelectStep={selectStep} />
      <div ref={detailRef} id="step-detail" className="scroll-mt-4">
        <StepDetailPanel
          runId={id}
          step={selectedStep}
          isLatest={!Number.isFinite(stepParam)}
          hasSteps={run.steps.length > 0}
        />
      </div>
      {/* Below the fold: drawn when scrolled near or once the browser is idle, not in the first paint. */}
      <Deferred minHeight={600}>
        <ReviewPanels run={run} onSelectStep={selectStep} />
      </Deferred>
      <Deferred>
        <TransferMatrixPanel runId={id} status={run.status} />
        <Evidence run={run} />
      </Deferred>
      <Deferred minHeight={500}>
        <RunSidePanels run={run} />
      </Deferred>
    </div>
  );
}
