/** The transfer-eval queue processor: check the job name, parse its payload, delegate. */
import { UnrecoverableError, type Job } from "bullmq";
import { TRANSFER_JOBS, TransferCellPayloadSchema } from "../../lib/queue/contracts";
import { handleTransferCell, type TransferHandlerContext } from "../handlers/transfer-eval";

export function transferEvalProcessor(ctx: TransferHandlerContext) {
  return async (job: Job): Promise<string> => {
    if (job.name !== TRANSFER_JOBS.cell) throw new UnrecoverableError(`unknown transfer job '${job.name}'`);
    const parsed = TransferCellPayloadSchema.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`invalid payload for job ${job.id}: ${parsed.error.issues[0]?.message}`);
    return handleTransferCell(parsed.data.cellId, ctx);
  };
}
