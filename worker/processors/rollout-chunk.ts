/**
 * The rollout-chunk queue processor (`worker.fan_out`): check the job name, parse the payload, delegate.
 * A chunk reaching (or cut off by) a worker that is shutting down goes back to the queue for another worker.
 */
import { DelayedError, UnrecoverableError, type Job } from "bullmq";
import { RunCancelledError } from "../../lib/engine";
import { FANOUT_JOBS, RolloutChunkPayloadSchema } from "../../lib/queue/contracts";
import { handleRolloutChunk, type ChunkContext } from "../fanout/chunk";

const HANDBACK_DELAY_MS = 500;

export function rolloutChunkProcessor(ctx: ChunkContext) {
  return async (job: Job, token?: string): Promise<number> => {
    if (job.name !== FANOUT_JOBS.chunk) throw new UnrecoverableError(`unknown rollout-chunk job '${job.name}'`);
    const parsed = RolloutChunkPayloadSchema.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`invalid payload for job ${job.id}: ${parsed.error.issues[0]?.message}`);
    try {
      if (ctx.shutdown.aborted) throw new RunCancelledError();
      return await handleRolloutChunk(parsed.data, ctx);
    } catch (err) {
      if (!(err instanceof RunCancelledError) || !ctx.shutdown.aborted) throw err;
      await job.moveToDelayed(Date.now() + HANDBACK_DELAY_MS, token);
      throw new DelayedError();
    }
  };
}
