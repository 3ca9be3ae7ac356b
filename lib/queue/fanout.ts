/**
 * The rollout-chunk queue (`worker.fan_out`). A chunk's job id is derived from the run, the rollout folder,
 * the batch spec and the chunk index, so a parent that adds its chunks again (a resume, a re-check) never
 * creates a second live job for a chunk. A failed chunk job is kept (with its reason) until the parent
 * removes it to add the chunk again.
 */
import { createHash } from "node:crypto";
import { Queue, type Job } from "bullmq";
import { redisOptions } from "./connection";
import { FANOUT_JOBS, FANOUT_QUEUE, RolloutChunkPayloadSchema, type RolloutChunkPayload } from "./contracts";

const g = globalThis as unknown as { __skilloptFanOutQueue?: Queue };

export function getFanOutQueue(): Queue {
  if (!g.__skilloptFanOutQueue) {
    const queue = new Queue(FANOUT_QUEUE, { connection: { ...redisOptions(), maxRetriesPerRequest: 3 } });
    queue.on("error", () => {}); // callers see the failed command; ioredis reconnects by itself
    g.__skilloptFanOutQueue = queue;
  }
  return g.__skilloptFanOutQueue;
}

export async function closeFanOutQueue(): Promise<void> {
  const queue = g.__skilloptFanOutQueue;
  g.__skilloptFanOutQueue = undefined;
  await queue
    ?.close()
    .catch((e: unknown) => console.warn(`fan-out queue close: ${e instanceof Error ? e.message : String(e)}`));
}

const hash16 = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 16);

/** The spec hash of a batch: its item ids in order (the same batch of a run always gets the same spec). */
export const fanOutSpecOf = (itemIds: readonly string[]): string => hash16(JSON.stringify(itemIds));

export const chunkJobId = (p: RolloutChunkPayload): string =>
  `fanout-${p.runId}-${hash16(`${p.dir}\n${p.spec}`)}-${p.chunk}`;

/** Adds a chunk's job unless a live one exists; a failed one is removed first (the chunk runs again). */
export async function addChunkJob(payload: RolloutChunkPayload, queue: Queue = getFanOutQueue()): Promise<void> {
  const data = RolloutChunkPayloadSchema.parse(payload);
  const jobId = chunkJobId(data);
  const old = await queue.getJob(jobId);
  if (old && (await old.isFailed())) await old.remove();
  await queue.add(FANOUT_JOBS.chunk, data, {
    jobId,
    attempts: 3,
    backoff: { type: "exponential", delay: 1_000 },
    removeOnComplete: true,
    removeOnFail: { count: 1000 },
  });
}

/** A chunk job that failed for good: its reason; null while it is live, done or gone. */
export async function chunkFailure(
  payload: RolloutChunkPayload,
  queue: Queue = getFanOutQueue(),
): Promise<string | null> {
  const job: Job | undefined = await queue.getJob(chunkJobId(payload));
  if (!job || !(await job.isFailed())) return null;
  return job.failedReason || "chunk job failed";
}

/** True when the chunk has a job that will still run (waiting, delayed or active). */
export async function chunkJobLive(payload: RolloutChunkPayload, queue: Queue = getFanOutQueue()): Promise<boolean> {
  const job = await queue.getJob(chunkJobId(payload));
  if (!job) return false;
  const state = await job.getState();
  return state === "waiting" || state === "active" || state === "delayed" || state === "prioritized";
}

/** Removes the chunk's job if it has not started (a cancelled run stops paying for it). */
export async function dropWaitingChunk(payload: RolloutChunkPayload, queue: Queue = getFanOutQueue()): Promise<void> {
  const job = await queue.getJob(chunkJobId(payload));
  if (!job) return;
  const state = await job.getState();
  if (state === "waiting" || state === "delayed" || state === "prioritized") await job.remove().catch(() => {});
}
