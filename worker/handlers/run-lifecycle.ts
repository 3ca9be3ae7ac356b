/**
 * Ownership of a run while a worker trains it: the claim (or the take-over of a run whose worker died),
 * heartbeats, the cancellation watch, and the final status.
 */
import { appendRunEvent } from "../../lib/db/engine-events";
import { claimRun, findRun, heartbeat, isCancelRequested, markRunFinished, reclaimRun, type RunRow } from "../../lib/db/runs";
import { getDb } from "../../lib/db/client";
import { enqueueRun } from "../../lib/queue/producer";
import type { HandlerContext } from "./context";

const CANCEL_POLL_MS = 1_000;

/** Heartbeats come well within the stale limit, so a live owner never looks dead. */
export const heartbeatMs = (staleAfterMs: number): number => Math.max(500, Math.min(5_000, Math.floor(staleAfterMs / 3)));

const heartbeatAge = (r: { heartbeatAt: Date | null }) => (r.heartbeatAt ? Date.now() - r.heartbeatAt.getTime() : Infinity);

/**
 * For a redelivered job whose run still looks owned: wait until the owner's heartbeat goes stale (it died)
 * or the run changes hands; never longer than one stale period plus a margin.
 */
async function waitForStaleOwner(runId: string, ctx: HandlerContext): Promise<boolean> {
  const end = Date.now() + ctx.staleAfterMs + 2_000;
  while (Date.now() < end) {
    const r = await findRun(runId);
    if (!r || (r.status !== "running" && r.status !== "cancelling")) return false;
    if (heartbeatAge(r) > ctx.staleAfterMs) return true;
    await new Promise((res) => setTimeout(res, 250));
  }
  return false;
}

/** True when this worker now owns the run. */
export async function claimOrReclaim(run: RunRow, ctx: HandlerContext, redelivered = false): Promise<boolean> {
  let resumed = run.stepsDone > 0 || run.status === "interrupted";
  let ok = await claimRun(run.id, ctx.workerId);
  if (!ok && (run.status === "running" || run.status === "cancelling")) {
    // The queue handed the job back: its owner died mid-run once its heartbeat has gone stale.
    const stale = heartbeatAge(run) > ctx.staleAfterMs || (redelivered && (await waitForStaleOwner(run.id, ctx)));
    ok = stale && (await reclaimRun(run.id, ctx.workerId));
    resumed = true;
  }
  if (!ok) {
    ctx.log.info(`run ${run.id} is ${run.status}; job skipped`);
    return false;
  }
  ctx.log.info(`run ${run.id} claimed${resumed ? " (resuming from checkpoint)" : ""}`);
  const seq = await appendRunEvent(run.id, "runClaimed", { workerId: ctx.workerId, resumed });
  ctx.publish(run.id, seq);
  return true;
}

export interface RunWatch {
  signal: AbortSignal;
  cancelled(): boolean;
  stop(): void;
}

/** Heartbeats, and aborts the run on a cancel request or worker shutdown. */
export function startRunWatch(runId: string, ctx: HandlerContext): RunWatch {
  const ac = new AbortController();
  let cancelled = false;
  const onShutdown = () => ac.abort(new Error("worker shutting down"));
  if (ctx.shutdown.aborted) onShutdown();
  ctx.shutdown.addEventListener("abort", onShutdown, { once: true });
  const beat = setInterval(() => void heartbeat(runId, ctx.workerId).catch((e) => ctx.log.warn(`heartbeat failed: ${String(e)}`)), heartbeatMs(ctx.staleAfterMs));
  const poll = setInterval(() => {
    void isCancelRequested(runId).then(
      (yes) => {
        if (yes && !ac.signal.aborted) {
          cancelled = true;
          ac.abort(new Error("cancelled by the user"));
        }
      },
      (e) => ctx.log.warn(`cancel check failed: ${String(e)}`),
    );
  }, CANCEL_POLL_MS);
  return {
    signal: ac.signal,
    cancelled: () => cancelled,
    stop() {
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
  | { kind: "failed"; message: string }
  | { kind: "paused"; message: string };

export async function finishRun(runId: string, end: RunEnd, ctx: HandlerContext): Promise<void> {
  let seq: number;
  if (end.kind === "succeeded") {
    const run = await getDb().run.findUnique({ where: { id: runId }, select: { stopReason: true } });
    await markRunFinished(runId, "succeeded", { stopReason: run?.stopReason ?? "completed" });
    seq = (await getDb().run.findUniqueOrThrow({ where: { id: runId }, select: { lastEventSeq: true } })).lastEventSeq;
  } else if (end.kind === "cancelled") {
    await markRunFinished(runId, "cancelled", { stopReason: "cancelled by the user" });
    seq = (await getDb().run.findUniqueOrThrow({ where: { id: runId }, select: { lastEventSeq: true } })).lastEventSeq;
  } else if (end.kind === "paused") {
    // The budget is spent: the run waits, resumable with a larger budget from the dashboard.
    await markRunFinished(runId, "budget_exhausted", { errorMessage: end.message.slice(0, 2000) });
    seq = (await getDb().run.findUniqueOrThrow({ where: { id: runId }, select: { lastEventSeq: true } })).lastEventSeq;
  } else if (end.kind === "failed") {
    await markRunFinished(runId, "failed", { errorMessage: end.message.slice(0, 2000) });
    seq = (await getDb().run.findUniqueOrThrow({ where: { id: runId }, select: { lastEventSeq: true } })).lastEventSeq;
  } else {
    // Worker shutdown: the run goes back to the queue and resumes from its checkpoint on the next worker.
    await getDb().run.update({ where: { id: runId }, data: { status: "queued", workerId: null } });
    seq = await appendRunEvent(runId, "runQueued", { reason: "worker shut down; the run continues on the next worker" });
    await enqueueRun(runId, { attempt: Date.now() });
  }
  ctx.publish(runId, seq);
}
