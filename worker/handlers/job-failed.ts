/**
 * A job BullMQ failed outside our handler (it stalled — its worker died or stopped renewing the lock — or
 * the handler threw before it could record the run's end) must never leave its run `running`. Once the
 * owner's heartbeat is stale too, the run becomes interrupted at once and is restarted under the run-level
 * limit, exactly as a reconcile pass would do.
 */
import { findRun } from "../../lib/db/runs";
import { isStale } from "../../lib/contracts/run-recovery";
import { OptimizeRunPayloadSchema } from "../../lib/queue";
import { jobGenOf, listRunsWithLiveJobs } from "../../lib/queue/producer";
import { decideReconcile } from "../reconcile-decision";
import { applyReconcile, REDIS_TIMEOUT_MS, type RecoveryDeps } from "../reconcile";

const POLL_MS = 250;
const OWNED = new Set(["running", "cancelling"]);

export async function recoverAfterJobFailure(
  job: { id?: string; data: unknown },
  reason: string,
  deps: RecoveryDeps & { sleep?: (ms: number) => Promise<void>; signal?: AbortSignal },
): Promise<void> {
  const parsed = OptimizeRunPayloadSchema.safeParse(job.data);
  if (!parsed.success) return;
  const runId = parsed.data.runId;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const gen = jobGenOf(job.id);
  // The lock lapses before the heartbeat counts as stale; wait (bounded) until the owner is surely gone.
  const end = Date.now() + deps.staleAfterMs + 2_000;
  let run = await findRun(runId);
  while (run && OWNED.has(run.status) && !isStale(run.heartbeatAt, deps.staleAfterMs) && Date.now() < end) {
    await sleep(POLL_MS);
    // A worker shutting down leaves the rest to the other workers' reconcile loops.
    if (deps.signal?.aborted) return;
    run = await findRun(runId);
  }
  if (!run) return;
  // An older job of a run that has been queued again since (Resume, restart) is history.
  if (gen !== null && gen < run.jobGen) return;
  const hasJob = (await listRunsWithLiveJobs(deps.queue, REDIS_TIMEOUT_MS)).has(runId);
  const action = decideReconcile({
    run,
    hasJob,
    now: Date.now(),
    staleAfterMs: deps.staleAfterMs,
    graceMs: 0,
    maxAutoRestarts: deps.maxAutoRestarts,
  });
  if (action.kind === "enqueue") {
    // Failed before any worker claimed it: the periodic reconcile queues it again, at most once a minute.
    deps.log.warn(
      `run ${runId}: job ${job.id} failed before the run started (${reason}); the reconcile loop queues it again`,
    );
    return;
  }
  if (action.kind === "none" && OWNED.has(run.status)) {
    deps.log.warn(`run ${runId}: job ${job.id} failed (${reason}) but its worker is still alive; it keeps the run`);
    return;
  }
  const done = await applyReconcile(run, action, deps, `job failed: ${reason}`);
  if (done) deps.log.info(`run ${runId}: ${done} after job ${job.id} failed (${reason})`);
}
