/**
 * The BullMQ processor: parse the payload, delegate to the handler. Bad payloads are unrecoverable.
 */
import { UnrecoverableError, type Job } from "bullmq";
import { OptimizeRunPayloadSchema } from "../../lib/queue";
import { handleOptimizeRun, type HandlerContext } from "../handlers/optimize-run";

export function optimizeRunProcessor(ctx: HandlerContext) {
  return async (job: Job): Promise<string> => {
    const parsed = OptimizeRunPayloadSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid payload for job ${job.id}: ${parsed.error.issues[0]?.message}`);
    // A job the queue handed back after its lock expired: its previous worker stopped (or stalled).
    const redelivered = (job.stalledCounter ?? 0) > 0 || (job.attemptsStarted ?? 1) > 1;
    return handleOptimizeRun(parsed.data.runId, ctx, { redelivered });
  };
}
