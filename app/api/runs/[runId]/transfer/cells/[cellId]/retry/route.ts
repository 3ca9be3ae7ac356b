import { RunIdSchema } from "@/lib/contracts/api";
import { TransferCellIdSchema } from "@/lib/contracts/transfer";
import { retryTransferCell } from "@/lib/db/transfer-cells";
import { handle } from "@/lib/http/errors";
import { requeueTransferCell } from "@/lib/queue/transfer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
type Ctx = { params: Promise<{ runId: string; cellId: string }> };

/** Queues one failed cell of the matrix again; the other cells are left alone (409 unless it failed). */
export function POST(_req: Request, { params }: Ctx) {
  return handle("retry transfer cell", async () => {
    const p = await params;
    const runId = RunIdSchema.parse(p.runId);
    const cellId = TransferCellIdSchema.parse(p.cellId);
    await retryTransferCell(runId, cellId);
    let queued = true;
    try {
      await requeueTransferCell(cellId);
    } catch (e) {
      // The cell stays queued in the database; a worker enqueues it again when it starts.
      queued = false;
      console.warn(`[api] transfer cell ${cellId} not on the queue yet: ${String(e)}`);
    }
    return Response.json({ cellId, queued }, { status: queued ? 202 : 200 });
  });
}
