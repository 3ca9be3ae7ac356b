/**
 * The worker's side of `worker.fan_out`: one BullMQ Worker on the rollout-chunk queue. It holds at most two
 * chunks (one running, one ready to start as slots free up) and runs a run's items in that run's
 * `worker.exec_slots` slots, so the other chunks stay in the queue for other workers.
 * A chunk whose worker died is taken again (twice at most) after the lock expires.
 */
import { Worker } from "bullmq";
import { errorLine } from "../../lib/contracts/error-line";
import { redisOptions } from "../../lib/queue";
import { FANOUT_QUEUE } from "../../lib/queue/contracts";
import { closeFanOutQueue } from "../../lib/queue/fanout";
import { rolloutChunkProcessor } from "../processors/rollout-chunk";
import type { ChunkContext } from "./chunk";

export async function startFanOutWorker(
  ctx: ChunkContext & { lockMs: number; stalledIntervalMs: number },
): Promise<{ close(): Promise<void> }> {
  const worker = new Worker(FANOUT_QUEUE, rolloutChunkProcessor(ctx), {
    connection: redisOptions(),
    // One chunk running and one ready: the second starts its items the moment the first frees a slot.
    concurrency: 2,
    lockDuration: ctx.lockMs,
    stalledInterval: ctx.stalledIntervalMs,
    maxStalledCount: 2,
  });
  worker.on("failed", (job, err) => ctx.log.warn(`rollout chunk ${job?.id} failed: ${errorLine(err)}`));
  worker.on("error", (err) => ctx.log.warn(`rollout-chunk worker error: ${err.message}`));
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      await closeFanOutQueue();
    },
  };
}
