/**
 * The worker's transfer matrix side: one BullMQ Worker on the transfer-eval queue (two cells at a time),
 * and, at start, the cells left queued in the database enqueued again.
 */
import { Worker } from "bullmq";
import { errorLine } from "../lib/contracts/error-line";
import { failTransferCell, listQueuedTransferCellIds } from "../lib/db/transfer-cells";
import { redisOptions } from "../lib/queue";
import { TRANSFER_QUEUE, TransferCellPayloadSchema } from "../lib/queue/contracts";
import { closeTransferQueue, enqueueTransferCell } from "../lib/queue/transfer";
import type { Logger } from "./logger";
import { transferEvalProcessor } from "./processors/transfer-eval";

export async function startTransferWorker(opts: { rootDir: string; log: Logger }): Promise<{ close(): Promise<void> }> {
  const { log } = opts;
  // A stalled cell (its worker died) fails at once instead of running twice; it can be queued again.
  const worker = new Worker(TRANSFER_QUEUE, transferEvalProcessor(opts), {
    connection: redisOptions(),
    concurrency: 2,
    maxStalledCount: 0,
  });
  worker.on("failed", (job, err) => {
    log.warn(`transfer job ${job?.id} failed: ${errorLine(err)}`);
    const parsed = TransferCellPayloadSchema.safeParse(job?.data);
    if (parsed.success) void failTransferCell(parsed.data.cellId, errorLine(err)).catch(() => {});
  });
  worker.on("error", (err) => log.warn(`transfer worker error: ${err.message}`));
  await worker.waitUntilReady();
  try {
    for (const id of await listQueuedTransferCellIds()) await enqueueTransferCell(id);
  } catch (e) {
    log.warn(`transfer: re-queueing cells at start failed: ${errorLine(e)}`);
  }
  return {
    async close() {
      await worker.close();
      await closeTransferQueue();
    },
  };
}
