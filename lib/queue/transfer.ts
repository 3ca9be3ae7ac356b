/**
 * The transfer-eval queue: one job per transfer matrix cell (job id = `transfer-<cellId>`, so a repeated
 * add is one job). Adds are time-boxed like the run producer's; a cell whose add failed stays queued in the
 * database and the worker enqueues it again at start.
 */
import { Queue } from "bullmq";
import { redisOptions } from "./connection";
import { TRANSFER_JOBS, TRANSFER_QUEUE, TransferCellPayloadSchema } from "./contracts";
import { ENQUEUE_TIMEOUT_MS } from "./producer";

const g = globalThis as unknown as { __skilloptTransferQueue?: Queue };

export function getTransferQueue(): Queue {
  if (!g.__skilloptTransferQueue) {
    const queue = new Queue(TRANSFER_QUEUE, {
      connection: { ...redisOptions(), maxRetriesPerRequest: 1, enableOfflineQueue: false },
    });
    queue.on("error", () => {}); // callers see the failed command; ioredis reconnects by itself
    g.__skilloptTransferQueue = queue;
  }
  return g.__skilloptTransferQueue;
}

export async function closeTransferQueue(): Promise<void> {
  const queue = g.__skilloptTransferQueue;
  g.__skilloptTransferQueue = undefined;
  await queue
    ?.close()
    .catch((e: unknown) => console.warn(`transfer queue close: ${e instanceof Error ? e.message : String(e)}`));
}

export async function enqueueTransferCell(cellId: string, queue: Queue = getTransferQueue()): Promise<void> {
  const payload = TransferCellPayloadSchema.parse({ cellId });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Redis did not answer within ${ENQUEUE_TIMEOUT_MS} ms`)),
      ENQUEUE_TIMEOUT_MS,
    );
  });
  await Promise.race([
    queue.add(TRANSFER_JOBS.cell, payload, {
      jobId: `transfer-${cellId}`,
      attempts: 1,
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 1000 },
    }),
    timeout,
  ]).finally(() => clearTimeout(timer));
}

/**
 * Queues a cell again after its job finished (Retry): the finished job is kept under the same id for a
 * while, and an add under a kept id is a no-op, so the old job is removed first.
 */
export async function requeueTransferCell(cellId: string, queue: Queue = getTransferQueue()): Promise<void> {
  await queue.remove(`transfer-${cellId}`);
  await enqueueTransferCell(cellId, queue);
}
