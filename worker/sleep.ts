/**
 * The worker's Sleep side: one BullMQ Worker on the sleep-night queue (one night at a time: a night is
 * heavy and writes to the user's skill folders), and, at start, the schedules reconciled with the
 * database and the nights queued while Redis was away enqueued again.
 */
import { Worker } from "bullmq";
import { errorLine } from "../lib/contracts/error-line";
import { markDeadNightsInterrupted } from "../lib/db/sleep-night-liveness";
import { listQueuedNightIds } from "../lib/db/sleep-nights";
import { staleAfterMs } from "../lib/runs/liveness";
import { listScheduledSleepProjects } from "../lib/db/sleep-projects";
import { redisOptions } from "../lib/queue";
import { SLEEP_QUEUE } from "../lib/queue/contracts";
import { closeSleepQueue, enqueueSleepNight, reconcileSleepSchedules } from "../lib/queue/sleep";
import type { Logger } from "./logger";
import { onSleepJobFailed } from "./handlers/sleep-night";
import { sleepNightProcessor } from "./processors/sleep-night";

export interface SleepWorker {
  close(): Promise<void>;
}

/** Redis's schedules and queued jobs made to match the database. Safe to run again at any time. */
export async function reconcileSleep(log: Logger): Promise<void> {
  const projects = await listScheduledSleepProjects();
  const r = await reconcileSleepSchedules(projects);
  for (const id of await listQueuedNightIds()) await enqueueSleepNight(id);
  const dead = await markDeadNightsInterrupted({ staleAfterMs: staleAfterMs(), detectedBy: "the worker" });
  log.info(`sleep: ${r.upserted} schedule(s) active, ${r.removed} stale removed, ${dead} dead night(s) interrupted`);
}

export async function startSleepWorker(log: Logger): Promise<SleepWorker> {
  // A stalled night (its worker died) fails at once instead of running twice; the row says so below.
  const worker = new Worker(SLEEP_QUEUE, sleepNightProcessor({ log }), {
    connection: redisOptions(),
    concurrency: 1,
    maxStalledCount: 0,
  });
  worker.on("failed", (job, err) => void onSleepJobFailed(job?.data, err, log));
  worker.on("error", (err) => log.warn(`sleep worker error: ${err.message}`));
  await worker.waitUntilReady();
  await reconcileSleep(log).catch((e: unknown) => log.warn(`sleep: reconcile at start failed: ${errorLine(e)}`));
  return {
    async close() {
      await worker.close();
      await closeSleepQueue();
    },
  };
}
