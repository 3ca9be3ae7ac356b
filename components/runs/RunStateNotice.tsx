import type { RunDetail } from "@/lib/contracts/api";
import { bestSentence } from "@/lib/contracts/best";
import { Notice } from "../ui/Notice";
import { BudgetResume } from "./BudgetResume";

/** Explains states that need the user's attention; never an endless spinner. */
export function RunStateNotice({ run }: { run: RunDetail }) {
  switch (run.status) {
    case "interrupted":
      return (
        <Notice tone="warn" title="This run was interrupted" testId="run-state-notice">
          The worker running it stopped (killed, restarted or out of contact) after step {run.stepsDone}.{" "}
          {run.errorMessage ? (
            <>Automatic restarts are used up: {run.errorMessage}.</>
          ) : (
            <>A running worker restarts it automatically.</>
          )}{" "}
          Press <b>Resume run</b> to continue from the last committed step; model calls that already completed are not
          paid again.
        </Notice>
      );
    case "budget_exhausted":
      return (
        <Notice tone="warn" title="Paused: the budget is spent" testId="run-state-notice">
          {run.errorMessage ?? "The run reached its budget."} Raise the budget to continue from the last committed step;
          completed model calls are not paid again.
          <BudgetResume run={run} />
        </Notice>
      );
    case "awaiting_review":
      return (
        <Notice tone="warn" title="Waiting for your review" testId="run-state-notice">
          A gate asked for a human decision (evaluation.human_review): review the candidate below. The run continues
          from that gate once it is decided; nothing already computed is paid again.
        </Notice>
      );
    case "failed":
      return (
        <Notice tone="error" title="This run failed" testId="run-state-notice">
          {run.errorMessage ?? "No error message was recorded."}{" "}
          <span className="text-red-800/80">Resume retries from the last committed step.</span>
        </Notice>
      );
    case "cancelling":
      return (
        <Notice tone="warn" testId="run-state-notice">
          Cancel requested — the worker stops at the next phase boundary and aborts in-flight model calls.
        </Notice>
      );
    case "cancelled":
      return (
        <Notice testId="run-state-notice">
          Cancelled after step {run.stepsDone}. The best skill so far can still be downloaded.
        </Notice>
      );
    case "queued":
      return (
        <Notice testId="run-state-notice">
          Waiting for a worker to pick up this run. If it stays queued, check that a worker is running (
          <code className="font-mono">npm start</code> starts one beside the dashboard).
        </Notice>
      );
    case "succeeded":
      return run.stopReason ? (
        <Notice testId="run-state-notice">
          Finished: {run.stopReason}.{" "}
          {bestSentence({
            score: run.bestScore,
            metric: run.config.evaluation.gate_metric,
            origin: run.bestOrigin,
            measuredBy: run.bestMeasuredBy,
          })}
          .
        </Notice>
      ) : null;
    default:
      return null;
  }
}
