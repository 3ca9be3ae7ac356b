/**
 * The worker process: `node --import tsx worker/index.ts` (same env as the web app). It trains queued
 * runs, recovers runs whose worker died, and shuts down cleanly on SIGTERM/SIGINT: active runs stop at a
 * safe point and go back to the queue; then the worker, Redis and the database close, in that order.
 */
import { hostname } from "node:os";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { env } from "../lib/config/env";
import { closeDb, writerSummary } from "../lib/db/client";
import { QUEUES, redisOptions, runChannel } from "../lib/queue";
import { closeQueue, getRunQueue } from "../lib/queue/producer";
import { createLogger } from "./logger";
import { optimizeRunProcessor } from "./processors/optimize-run";
import { recoverRuns } from "./recover";

/** SIGTERM/SIGINT end the process within this time, whatever the active runs are doing. */
const SHUTDOWN_GRACE_MS = 4_000;

async function main() {
  const cfg = env();
  const workerId = cfg.WORKER_ID ?? `${hostname()}-${process.pid}`;
  const log = createLogger(`worker ${workerId}`);
  const publisher = new Redis({ ...redisOptions(), maxRetriesPerRequest: 3 });
  publisher.on("error", (e) => log.warn(`redis publisher: ${e.message}`));
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
      maxStalledCount: 3,
    },
  );
  worker.on("failed", (job, err) => log.warn(`job ${job?.id} failed: ${err.message}`));
  worker.on("error", (err) => log.warn(`worker error: ${err.message}`));
  await worker.waitUntilReady();
  const queue: Queue = getRunQueue();
  const recovered = await recoverRuns(queue, { staleAfterMs, log });
  log.info(`ready (concurrency ${cfg.WORKER_CONCURRENCY}${recovered ? `, ${recovered} runs recovered` : ""})`);

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
