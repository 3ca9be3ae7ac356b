/**
 * The reconcile loop every worker runs (at start, when Redis comes back, and every SKILLOPT_RECONCILE_MS):
 * the database says which runs should be on the queue; the queue says which have a job. Runs queued with no
 * job get one (Redis restarted empty, or was down when they were queued); runs whose worker died with no job
 * left to take them over become interrupted and are restarted under the run-level limit; runs waiting on an
 * `ask` review whose deadline passed go back on the queue (their fallback applies).
 *
 * Two workers reconciling at once are safe: every change is a conditional update that one of them wins,
 * a requeue names its job by the new generation, and the claim is still the guard against double runs.
 */
import type { Queue } from "bullmq";
import { errorLine } from "../lib/contracts/error-line";
import {
  bumpJobGen,
  listRunsToReconcile,
  markWorkerLost,
  restartOrHold,
  type ReconcileRunRow,
} from "../lib/db/run-recovery";
import { requeueExpiredReviews } from "../lib/db/gate-reviews";
import { listRunsWithLiveJobs, tryEnqueueRun } from "../lib/queue/producer";
import type { Logger } from "./logger";
import { decideReconcile, type ReconcileAction } from "./reconcile-decision";

export interface RecoveryDeps {
  queue: Queue;
  staleAfterMs: number;
  maxAutoRestarts: number;
  log: Logger;
}

/**
 * Nobody waits on a worker's Redis calls, so they get longer than the API's: a worker whose event loop is
 * busy with a run must not report a slow answer as a failure (the add would still land, late).
 */
export const REDIS_TIMEOUT_MS = 15_000;

/** Queues a run's job of generation `gen`; when Redis is away the run stays queued for the next pass. */
async function enqueue(runId: string, gen: number, deps: RecoveryDeps): Promise<boolean> {
  return tryEnqueueRun(runId, {
    gen,
    queue: deps.queue,
    timeoutMs: REDIS_TIMEOUT_MS,
    onError: (e) =>
      deps.log.warn(
        `run ${runId}: not queued yet (${e instanceof Error ? e.message : String(e)}); the next reconcile retries`,
      ),
  });
}

/** Interrupted run: an automatic restart under the limit, else the hold message. Returns what happened. */
export async function restartInterrupted(runId: string, deps: RecoveryDeps): Promise<string | null> {
  const r = await restartOrHold(runId, { limit: deps.maxAutoRestarts });
  if (!r) return null;
  if (r.kind === "held") return `held after ${deps.maxAutoRestarts} automatic restarts (waits for Resume)`;
  await enqueue(runId, r.gen, deps);
  return `restarted automatically (${r.count} of ${deps.maxAutoRestarts})`;
}

/** Carries out one decision; returns a description of the change, or null when another process won. */
export async function applyReconcile(
  run: ReconcileRunRow,
  action: ReconcileAction,
  deps: RecoveryDeps,
  detectedBy: string,
): Promise<string | null> {
  switch (action.kind) {
    case "none":
    case "wait":
      return null;
    case "enqueue": {
      const gen = await bumpJobGen(run.id, run.jobGen);
      if (gen === null) return null;
      return (await enqueue(run.id, gen, deps)) ? "queued again (it had no job)" : null;
    }
    case "lost": {
      const status = await markWorkerLost(run.id, { staleAfterMs: deps.staleAfterMs, detectedBy });
      if (status !== "interrupted") return status ? `${status} (its worker was lost during a cancel)` : null;
      return restartInterrupted(run.id, deps);
    }
    case "restart":
    case "hold":
      return restartInterrupted(run.id, deps);
  }
}

/** A pass (or one run's change) that failed — Redis or the database away or busy — is tried again this much later. */
const RETRY_MS = 5_000;

/** One pass over every run that should be on the queue. Returns how long to wait for runs queued too recently. */
export async function reconcileOnce(
  deps: RecoveryDeps & { graceMs: number },
): Promise<{ changed: number; retryInMs: number | null }> {
  // The job snapshot comes first: a run queued after it is younger than the grace period and is left alone.
  const now = Date.now();
  const live = await listRunsWithLiveJobs(deps.queue, REDIS_TIMEOUT_MS);
  const runs = await listRunsToReconcile();
  let changed = 0;
  let retryInMs: number | null = null;
  for (const run of runs) {
    const action = decideReconcile({
      run,
      hasJob: live.has(run.id),
      now,
      staleAfterMs: deps.staleAfterMs,
      graceMs: deps.graceMs,
      maxAutoRestarts: deps.maxAutoRestarts,
    });
    if (action.kind === "wait") retryInMs = Math.min(retryInMs ?? Infinity, action.retryInMs);
    try {
      const done = await applyReconcile(
        run,
        action,
        deps,
        `reconcile: no heartbeat for over ${Math.round(deps.staleAfterMs / 1000)} s and no job`,
      );
      if (done) {
        changed += 1;
        deps.log.info(`run ${run.id} (${run.status}): ${done}`);
      }
    } catch (e) {
      // One run's failure (a busy database) must not hold up the others; this run is looked at again soon.
      deps.log.warn(`run ${run.id} (${run.status}): ${action.kind} failed: ${errorLine(e)}`);
      retryInMs = Math.min(retryInMs ?? Infinity, RETRY_MS);
    }
  }
  try {
    // Human review at the gate: an `ask` review past its deadline resumes the run, which takes the fallback.
    for (const r of await requeueExpiredReviews(new Date())) {
      if (await enqueue(r.runId, r.gen, deps)) changed += 1;
      deps.log.info(`run ${r.runId} (awaiting_review): review timed out; queued again`);
    }
  } catch (e) {
    deps.log.warn(`expired reviews not requeued yet: ${errorLine(e)}`);
    retryInMs = Math.min(retryInMs ?? Infinity, RETRY_MS);
  }
  return { changed, retryInMs };
}

export interface Reconciler {
  /** Runs a pass now (or right after the one in progress). */
  trigger(reason: string): Promise<void>;
  stop(): Promise<void>;
}

export function startReconciler(deps: RecoveryDeps & { intervalMs: number; graceMs: number }): Reconciler {
  let current: Promise<void> | null = null;
  let again: string | null = null;
  let stopped = false;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, reason: string) => {
    if (stopped) return;
    const t = setTimeout(() => {
      timers.delete(t);
      void trigger(reason);
    }, ms);
    timers.add(t);
  };
  const pass = async (reason: string) => {
    try {
      const r = await reconcileOnce(deps);
      // Quiet when the minute's pass finds nothing; the others (start, reconnect, retries) always say so.
      if (r.changed > 0 || reason !== "periodic") deps.log.info(`reconcile (${reason}): ${r.changed} run(s) recovered`);
      if (r.retryInMs !== null) later(r.retryInMs + 100, "recently queued runs");
    } catch (e) {
      deps.log.warn(
        `reconcile (${reason}) failed: ${e instanceof Error ? e.message : String(e)}; retrying in ${RETRY_MS / 1000} s`,
      );
      later(RETRY_MS, reason);
    }
  };
  const trigger = (reason: string): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (current) {
      again ??= reason; // one pass after this one covers every request made meanwhile
      return current;
    }
    current = pass(reason).finally(() => {
      current = null;
      if (again !== null) {
        const next = again;
        again = null;
        void trigger(next);
      }
    });
    return current;
  };
  const every = setInterval(() => void trigger("periodic"), deps.intervalMs);
  return {
    trigger,
    async stop() {
      stopped = true;
      clearInterval(every);
      for (const t of timers) clearTimeout(t);
      await current;
    },
  };
}
