/**
 * The worker process: `node --import tsx worker/index.ts` (same env as the web app). It trains queued
 * runs, recovers runs without a person (a failed or stalled job never leaves its run `running`; a reconcile
 * loop re-queues runs whose job was lost), and shuts down cleanly on SIGTERM/SIGINT: active runs stop at a
 * safe point and go back to the queue; then the worker, Redis and the database close, in that order.
 */
import { hostname } from "node:os";
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { env } from "../lib/config/env";
import { useSharedRateLimitStore } from "../lib/backends/policy/rate-limit";
import { useSharedBudgetStore } from "../lib/backends/policy/shared-budget";
import { errorLine } from "../lib/contracts/error-line";
import { closeDb, writerSummary } from "../lib/db/client";
import { QUEUES, redisOptions, runChannel } from "../lib/queue";
import { closeQueue, getRunQueue } from "../lib/queue/producer";
import { describeExtensions, loadConfiguredExtensions } from "../lib/services/extensions";
import { recoverAfterJobFailure } from "./handlers/job-failed";
import { startFanOutWorker } from "./fanout/start";
import { createLogger } from "./logger";
import { optimizeRunProcessor } from "./processors/optimize-run";
import { startReconciler, type Reconciler, type RecoveryDeps } from "./reconcile";
import { startSleepWorker } from "./sleep";
import { startTransferWorker } from "./transfer";

/** A run queued this recently may still be getting its job from the process that queued it. */
const RECONCILE_GRACE_MS = 5_000;

/** SIGTERM/SIGINT end the process within this time, whatever the active runs are doing. */
const SHUTDOWN_GRACE_MS = 4_000;

async function main() {
  const cfg = env();
  const workerId = cfg.WORKER_ID ?? `${hostname()}-${process.pid}`;
  const log = createLogger(`worker ${workerId}`);
  // SKILLOPT_EXTENSIONS: the same backends and benchmarks the dashboard registered (a bad file stops the worker).
  const extensions = await loadConfiguredExtensions(process.cwd());
  if (extensions.length > 0) log.info(`extensions: ${describeExtensions(extensions)}`);
  const publisher = new Redis({ ...redisOptions(), maxRetriesPerRequest: 3 });
  publisher.on("error", (e) => log.warn(`redis publisher: ${e.message}`));
  // model.rate_limit_rpm / _tpm: one allowance per endpoint and key for every worker on this Redis.
  useSharedRateLimitStore(publisher);
  // worker.fan_out: a run's budget counts the calls of every worker that runs its chunks.
  useSharedBudgetStore(publisher);
  // Redis may come back empty (no persistence, a failover): every reconnect re-queues what it lost.
  let reconciler: Reconciler | null = null;
  let connectedBefore = false;
  publisher.on("ready", () => {
    // Give the queue's own connections a moment to come back too (a pass that is too early is retried anyway).
    if (connectedBefore) setTimeout(() => void reconciler?.trigger("Redis reconnected"), 1_000);
    connectedBefore = true;
  });
  const shutdown = new AbortController();
  const staleAfterMs = cfg.WORKER_LOCK_MS + cfg.WORKER_STALLED_INTERVAL_MS;
  const worker = new Worker(
    QUEUES.optimizeRun,
    optimizeRunProcessor({
      workerId,
      rootDir: process.cwd(),
      shutdown: shutdown.signal,
      staleAfterMs,
      log,
      publish: (runId, seq) => void publisher.publish(runChannel(runId), String(seq)).catch(() => {}),
    }),
    {
      connection: redisOptions(),
      concurrency: cfg.WORKER_CONCURRENCY,
      lockDuration: cfg.WORKER_LOCK_MS,
      stalledInterval: cfg.WORKER_STALLED_INTERVAL_MS,
      // A stalled job (its worker died) fails at once instead of being retried by BullMQ: recovery is the
      // run's own (interrupted → restart under SKILLOPT_MAX_AUTO_RESTARTS → resume from the checkpoint).
      maxStalledCount: 0,
    },
  );
  const deps: RecoveryDeps = {
    queue: getRunQueue(),
    staleAfterMs,
    maxAutoRestarts: cfg.SKILLOPT_MAX_AUTO_RESTARTS,
    log,
  };
  const pending = new Set<Promise<void>>();
  worker.on("failed", (job, err) => {
    log.warn(`job ${job?.id} failed: ${errorLine(err)}`);
    if (!job || shutdown.signal.aborted) return;
    const p = recoverAfterJobFailure(job, errorLine(err), { ...deps, signal: shutdown.signal })
      .catch((e: unknown) => {
        log.warn(`recovery after job ${job.id} failed: ${errorLine(e)}; a reconcile pass retries it`);
        void reconciler?.trigger(`retry after job ${job.id} failed`);
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  });
  // A run this worker gave up as lost is either another worker's now (nothing to do) or was declared lost by a
  // dashboard that saw its heartbeat lapse while this worker was busy: then it is interrupted with no job, and
  // this pass restarts it now instead of at the next periodic pass (up to SKILLOPT_RECONCILE_MS later).
  worker.on("completed", (job, result) => {
    if (result === "lost" && !shutdown.signal.aborted) void reconciler?.trigger(`job ${job.id} lost its run`);
  });
  worker.on("error", (err) => log.warn(`worker error: ${err.message}`));
  await worker.waitUntilReady();
  reconciler = startReconciler({ ...deps, intervalMs: cfg.SKILLOPT_RECONCILE_MS, graceMs: RECONCILE_GRACE_MS });
  await reconciler.trigger("start");
  const sleepWorker = await startSleepWorker(log);
  const transferWorker = await startTransferWorker({ rootDir: process.cwd(), log });
  const fanOutWorker = await startFanOutWorker({
    workerId,
    rootDir: process.cwd(),
    log,
    shutdown: shutdown.signal,
    lockMs: cfg.WORKER_LOCK_MS,
    stalledIntervalMs: cfg.WORKER_STALLED_INTERVAL_MS,
  });
  log.info(`ready (concurrency ${cfg.WORKER_CONCURRENCY})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping active runs at a safe point…`);
    // A stop that hangs (Redis gone first, a call that ignores its signal) must not keep the process up:
    // a run cut off here is taken over from its checkpoint like one whose worker died.
    setTimeout(() => {
      log.warn(`still stopping after ${SHUTDOWN_GRACE_MS} ms; exiting now`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    shutdown.abort();
    await worker.close();
    await sleepWorker.close();
    await transferWorker.close();
    await fanOutWorker.close();
    await reconciler?.stop();
    await Promise.allSettled([...pending]);
    await closeQueue();
    await publisher.quit().catch(() => {});
    const writes = writerSummary();
    if (writes) log.info(`sqlite writer: ${writes}`);
    await closeDb();
    log.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((err: unknown) => {
  process.stderr.write(`worker failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
