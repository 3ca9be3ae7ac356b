/**
 * Ownership of a run while a worker trains it: the claim (recording a resume when an earlier attempt ran),
 * heartbeats, the watch that stops the run on a cancel, a shutdown or a lost ownership, and the final status.
 */
import { errorLine } from "../../lib/contracts/error-line";
import { getDb } from "../../lib/db/client";
import { appendRunEvent } from "../../lib/db/engine-events";
import { requeueIfReviewSettled } from "../../lib/db/gate-reviews";
import { recordResume } from "../../lib/db/resume-events";
import { requeueAfterShutdown } from "../../lib/db/run-recovery";
import { claimRun, heartbeat, markRunFinished, watchRun, type RunRow } from "../../lib/db/runs";
import { tryEnqueueRun } from "../../lib/queue/producer";
import type { HandlerContext } from "./context";

const WATCH_POLL_MS = 1_000;

/** Heartbeats come well within the stale limit, so a live owner never looks dead. */
export const heartbeatMs = (staleAfterMs: number): number =>
  Math.max(500, Math.min(5_000, Math.floor(staleAfterMs / 3)));

/**
 * True when this worker now owns the run. A run that ran before (its worker was lost, shut down, or the
 * user resumed it) gets a `runResumed` event that supersedes the earlier attempt's uncommitted events.
 */
export async function claimForJob(run: RunRow, ctx: HandlerContext): Promise<boolean> {
  const resumed = run.startedAt !== null;
  if (!(await claimRun(run.id, ctx.workerId))) {
    ctx.log.info(`run ${run.id} is ${run.status}; job skipped`);
    return false;
  }
  ctx.log.info(`run ${run.id} claimed${resumed ? ` (resuming after step ${run.stepsDone})` : ""}`);
  let seq = await appendRunEvent(run.id, { type: "runClaimed", workerId: ctx.workerId, resumed });
  if (resumed) seq = await recordResume(run.id, run.stepsDone + 1);
  ctx.publish(run.id, seq);
  return true;
}

/** Why the run's signal was aborted: the user's cancel, this worker's shutdown, or another worker took it over. */
export type StopCause = "cancel" | "shutdown" | "lost";

export interface RunWatch {
  signal: AbortSignal;
  cause(): StopCause | null;
  stop(): void;
}

/** Heartbeats, and aborts the run on a cancel request, worker shutdown or lost ownership. */
export function startRunWatch(runId: string, ctx: HandlerContext): RunWatch {
  const ac = new AbortController();
  let cause: StopCause | null = null;
  let stopped = false;
  const abort = (c: StopCause, why: string) => {
    // After stop() the run's end is being recorded by this worker: a late poll must not relabel it.
    if (ac.signal.aborted || stopped) return;
    cause = c;
    ac.abort(new Error(why));
  };
  const onShutdown = () => abort("shutdown", "worker shutting down");
  if (ctx.shutdown.aborted) onShutdown();
  ctx.shutdown.addEventListener("abort", onShutdown, { once: true });
  const beat = setInterval(
    () => void heartbeat(runId, ctx.workerId).catch((e: unknown) => ctx.log.warn(`heartbeat failed: ${String(e)}`)),
    heartbeatMs(ctx.staleAfterMs),
  );
  const poll = setInterval(() => {
    void watchRun(runId, ctx.workerId).then(
      (state) => {
        if (state === "cancel") abort("cancel", "cancelled by the user");
        // This worker stalled long enough to be declared lost and the run was handed on: stop, write nothing.
        if (state === "lost") abort("lost", "another worker took the run over");
      },
      (e: unknown) => ctx.log.warn(`run watch failed: ${String(e)}`),
    );
  }, WATCH_POLL_MS);
  return {
    signal: ac.signal,
    cause: () => cause,
    stop() {
      stopped = true;
      clearInterval(beat);
      clearInterval(poll);
      ctx.shutdown.removeEventListener("abort", onShutdown);
    },
  };
}

export type RunEnd =
  | { kind: "succeeded" }
  | { kind: "cancelled" }
  | { kind: "shutdown" }
  | { kind: "failed"; error: unknown }
  | { kind: "paused"; error: unknown }
  | { kind: "awaiting_review" };

/** Records how the run ended, while this worker still owns it. */
export async function finishRun(runId: string, end: RunEnd, ctx: HandlerContext): Promise<void> {
  const owner = { ownerId: ctx.workerId };
  if (end.kind === "shutdown") {
    // The run goes back to the queue and resumes from its checkpoint on the next worker.
    const gen = await requeueAfterShutdown(runId, ctx.workerId);
    if (gen !== null) {
      const onError = (e: unknown) =>
        ctx.log.warn(`[run ${runId}] not queued (${errorLine(e)}); the reconcile loop queues it`);
      await tryEnqueueRun(runId, { gen, onError });
    } else {
      // A cancel arrived together with the shutdown: honour the cancel.
      const run = await getDb().run.findUnique({ where: { id: runId }, select: { status: true } });
      if (run?.status === "cancelling")
        await markRunFinished(runId, "cancelled", { stopReason: "cancelled by the user" }, owner);
    }
  } else if (end.kind === "succeeded") {
    const run = await getDb().run.findUnique({ where: { id: runId }, select: { stopReason: true } });
    await markRunFinished(runId, "succeeded", { stopReason: run?.stopReason ?? "completed" }, owner);
  } else if (end.kind === "cancelled") {
    await markRunFinished(runId, "cancelled", { stopReason: "cancelled by the user" }, owner);
  } else if (end.kind === "awaiting_review") {
    // A gate waits for a reviewer: the run stops here and the decision (or an `ask` timeout) requeues it.
    if (await markRunFinished(runId, "awaiting_review", {}, owner)) {
      const gen = await requeueIfReviewSettled(runId);
      if (gen !== null)
        await tryEnqueueRun(runId, {
          gen,
          onError: (e) => ctx.log.warn(`[run ${runId}] not queued (${errorLine(e)}); the reconcile loop queues it`),
        });
    }
  } else if (end.kind === "paused") {
    // The budget is spent: the run waits, resumable with a larger budget from the dashboard.
    await markRunFinished(runId, "budget_exhausted", { errorMessage: errorLine(end.error) }, owner);
  } else {
    // One clean line for the API and the page; the full error (stack, driver dump) is in the worker log.
    ctx.log.warn(
      `[run ${runId}] failed: ${end.error instanceof Error ? (end.error.stack ?? end.error.message) : String(end.error)}`,
    );
    await markRunFinished(runId, "failed", { errorMessage: errorLine(end.error) }, owner);
  }
  const { lastEventSeq } = await getDb().run.findUniqueOrThrow({
    where: { id: runId },
    select: { lastEventSeq: true },
  });
  ctx.publish(runId, lastEventSeq);
}
