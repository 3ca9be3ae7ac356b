/**
 * Enqueueing runs. Job defaults live here: the job id is the run id (so a run is queued once), finished
 * jobs are trimmed, and retries are left to the run's own resume logic.
 */
import { Queue } from "bullmq";
import { JOBS, OptimizeRunPayloadSchema, QUEUES } from "./contracts";
import { redisOptions } from "./connection";

const g = globalThis as unknown as { __skilloptQueue?: Queue };

export function getRunQueue(): Queue {
  return (g.__skilloptQueue ??= new Queue(QUEUES.optimizeRun, { connection: redisOptions() }));
}

/**
 * Queues a run. A new job id per attempt (`runId` plus a suffix for resumes) lets a resumed run be queued
 * again after its first job finished.
 */
export async function enqueueRun(runId: string, opts: { attempt?: number; queue?: Queue } = {}): Promise<void> {
  const payload = OptimizeRunPayloadSchema.parse({ runId });
  const queue = opts.queue ?? getRunQueue();
  const jobId = opts.attempt ? `${runId}-r${opts.attempt}` : runId;
  await queue.add(JOBS.start, payload, {
    jobId,
    attempts: 1,
    removeOnComplete: { count: 1000 },
    removeOnFail: { count: 1000 },
  });
}

export async function closeQueue(): Promise<void> {
  await g.__skilloptQueue?.close();
  g.__skilloptQueue = undefined;
}
