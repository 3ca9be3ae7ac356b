/**
 * The optimize-run queue processor: parse the payload, delegate to the handler. A malformed payload is
 * unrecoverable. A job that reaches a worker already shutting down goes back to the queue untouched, so
 * the run a shutdown just requeued is taken by the next worker, not claimed again by this one.
 */
import { DelayedError, UnrecoverableError, type Job } from "bullmq";
import { OptimizeRunPayloadSchema } from "../../lib/queue";
import { handleOptimizeRun, type HandlerContext } from "../handlers/optimize-run";

/** How long a job handed back during a shutdown waits before another worker may take it. */
const HANDBACK_DELAY_MS = 1_000;

export function optimizeRunProcessor(ctx: HandlerContext) {
  return async (job: Job, token?: string): Promise<string> => {
    const parsed = OptimizeRunPayloadSchema.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`invalid payload for job ${job.id}: ${parsed.error.issues[0]?.message}`);
    if (ctx.shutdown.aborted) {
      await job.moveToDelayed(Date.now() + HANDBACK_DELAY_MS, token);
      throw new DelayedError();
    }
    return handleOptimizeRun(parsed.data.runId, ctx);
  };
}
