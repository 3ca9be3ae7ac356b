/**
 * The sleep-night queue processor: check the job name, parse its payload, delegate. A malformed payload
 * or an unknown job name is unrecoverable.
 */
import { UnrecoverableError, type Job } from "bullmq";
import { SLEEP_JOBS, SleepNightPayloadSchema, SleepScheduledPayloadSchema } from "../../lib/queue/contracts";
import { handleScheduledNight, handleSleepNight, type SleepHandlerContext } from "../handlers/sleep-night";

export function sleepNightProcessor(ctx: SleepHandlerContext) {
  return async (job: Job): Promise<string> => {
    const schema =
      job.name === SLEEP_JOBS.run
        ? SleepNightPayloadSchema
        : job.name === SLEEP_JOBS.scheduled
          ? SleepScheduledPayloadSchema
          : null;
    if (!schema) throw new UnrecoverableError(`unknown Sleep job '${job.name}'`);
    const parsed = schema.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`invalid payload for job ${job.id}: ${parsed.error.issues[0]?.message}`);
    const data = parsed.data as { nightId?: string; projectId?: string };
    if (data.nightId) return handleSleepNight(data.nightId, ctx);
    const onNightCreated = (nightId: string) => job.updateData({ ...data, nightId });
    return handleScheduledNight(data.projectId!, { ...ctx, onNightCreated });
  };
}
