"use client";
import type { StepDetail } from "@/lib/contracts/api";
import { describeCoverage, isPartial, type SelectionCoverage } from "@/lib/contracts/coverage";
import { isApiError } from "../api-client";
import { SkillDiff } from "../diff/SkillDiff";
import { formatScore, shortHash } from "../format";
import { ActionBadge } from "../ui/ActionBadge";
import { Card } from "../ui/Card";
import { Notice } from "../ui/Notice";
import { EditsTable } from "./EditsTable";
import { RolloutTable } from "./RolloutTable";
import { SelectionTable } from "./SelectionTable";
import { useStepDetail } from "./use-run";

const NO_CANDIDATE: Record<string, string> = {
  skip_no_patches:
    "No candidate at this step (skip_no_patches): the analysts proposed no patches — for example, every train item in the batch was already correct — so the skill stayed as it was.",
  skip_no_rewrite:
    "No candidate at this step (skip_no_rewrite): the rewrite produced no new skill, so the skill stayed as it was.",
};

/** Everything about one step: the diff current → candidate, the edits through the pipeline, per-item flips. */
export function StepDetailPanel({
  runId,
  step,
  isLatest,
  hasSteps,
}: {
  runId: string;
  step: number | null;
  isLatest: boolean;
  hasSteps: boolean;
}) {
  const { data, error, isPending, isPlaceholderData } = useStepDetail(runId, step);
  if (step === null) {
    return (
      <Card title="Step detail">
        <p className="py-4 text-center text-gray-500">
          {hasSteps
            ? "Select a step above or on the selection chart."
            : "The diff, edits and per-item results appear here once the first step is committed."}
        </p>
      </Card>
    );
  }
  const title = (
    <span className="flex items-center gap-2">
      Step {step}
      {isLatest && <span className="text-xs font-normal text-gray-500">(latest)</span>}
      {isPlaceholderData && <span className="text-xs font-normal text-gray-400">loading…</span>}
    </span>
  );
  if (error && !data) {
    const msg = isApiError(error, 404) ? `Step ${step} has not been committed (or does not exist).` : error.message;
    return (
      <Card title={title}>
        <Notice tone={isApiError(error, 404) ? "info" : "error"}>{msg}</Notice>
      </Card>
    );
  }
  if (isPending || !data) {
    return (
      <Card title={title}>
        <p className="py-4 text-center text-gray-500">Loading step {step}…</p>
      </Card>
    );
  }
  return (
    <Card title={title} actions={<StepSummary d={data} />} bodyClassName="space-y-4 p-3">
      <section aria-label="Skill diff">
        {data.candidate ? (
          <SkillDiff
            oldText={data.current.content}
            newText={data.candidate.content}
            oldLabel={
              <>
                Current skill <span className="font-mono text-gray-500">{shortHash(data.current.hash)}</span>
              </>
            }
            newLabel={
              <>
                Candidate <span className="font-mono text-gray-500">{shortHash(data.candidate.hash)}</span>{" "}
                <ActionBadge action={data.candidate.status ?? data.step.action} />
              </>
            }
          />
        ) : (
          <Notice>
            {NO_CANDIDATE[data.step.action] ??
              `No candidate was built at this step (${data.step.action}); the skill stayed as it was.`}
          </Notice>
        )}
      </section>
      <CoverageNotice c={data.step.coverage} />
      <EditsTable edits={data.edits} />
      <SelectionTable
        rows={data.selection}
        currentKnown={data.currentKnown}
        currentFromStep={data.currentFromStep ?? null}
      />
      <RolloutTable runId={runId} step={step} />
      <details className="text-xs">
        <summary className="cursor-pointer text-gray-600 hover:text-gray-900">Step record (raw)</summary>
        <pre className="mt-2 max-h-72 overflow-auto rounded bg-gray-50 p-2 font-mono text-gray-800">
          {JSON.stringify(data.step.record, null, 2)}
        </pre>
      </details>
    </Card>
  );
}

/** What the gate compared, when some selection items went unanswered (and why it skipped, if it did). */
function CoverageNotice({ c }: { c: SelectionCoverage | null }) {
  if (!isPartial(c)) return null;
  const text = `The gate compared the candidate with the current skill on the items both answered: ${describeCoverage(c)}. Unanswered items are never scored as wrong.`;
  return (
    <Notice tone={c.skipReason ? "warn" : "info"}>
      <span data-testid="step-coverage">{text}</span>
      {c.skipReason && <> Skipped instead of deciding: {c.skipReason}.</>}
    </Notice>
  );
}

function StepSummary({ d }: { d: StepDetail }) {
  const c = d.candidate;
  return (
    <span className="flex flex-wrap items-center gap-x-3 text-gray-600">
      <span>
        epoch {d.step.epoch} · #{d.step.stepInEpoch}
      </span>
      <ActionBadge action={d.step.action} />
      {c && (
        <span className="tabular-nums">
          candidate hard {formatScore(c.selectionHard)} · soft {formatScore(c.selectionSoft)} · gate{" "}
          {formatScore(c.gateScore)}
        </span>
      )}
      {isPartial(d.step.coverage) && <span className="text-amber-700">{describeCoverage(d.step.coverage)}</span>}
      <span className="tabular-nums">
        current {formatScore(d.step.currentScore)} · best {formatScore(d.step.bestScore)}
      </span>
    </span>
  );
}
