import { listBackends } from "@/lib/services/new-run";
import { env } from "@/lib/config/env";
import { RunIdSchema } from "@/lib/contracts/api";
import { buildTransferMatrix, CreateTransferSchema, type TransferMatrixResponse } from "@/lib/contracts/transfer";
import { getRun } from "@/lib/db/runs";
import { createTransferCells, listTransferCells } from "@/lib/db/transfer-cells";
import { AppError } from "@/lib/errors";
import { handle, jsonBody } from "@/lib/http/errors";
import { enqueueTransferCell } from "@/lib/queue/transfer";
import { transferBudgetCheck, transferCsv } from "@/lib/services/run-reads";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
type Ctx = { params: Promise<{ runId: string }> };

/** The run's transfer matrix (target × skill → score, delta, cost); `?format=csv` downloads it. */
export function GET(req: Request, { params }: Ctx) {
  return handle("get transfer matrix", async () => {
    const id = RunIdSchema.parse((await params).runId);
    const run = await getRun(id);
    const rows = buildTransferMatrix(await listTransferCells(id));
    if (new URL(req.url).searchParams.get("format") === "csv") {
      return new Response(transferCsv(rows), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="transfer_${id.slice(0, 8)}.csv"`,
        },
      });
    }
    const body: TransferMatrixResponse = { rows, source: { backend: run.targetBackend, model: run.targetModel } };
    return Response.json(body);
  });
}

/**
 * Queues the best skill and the seed of a finished run on each target's test split (one job per cell);
 * with `maxCalls`, refused (422 on maxCalls, nothing queued) when the cells' estimated target calls exceed it.
 */
export function POST(req: Request, { params }: Ctx) {
  return handle("queue transfer matrix", async () => {
    const id = RunIdSchema.parse((await params).runId);
    const body = CreateTransferSchema.parse(await jsonBody(req));
    const backends = listBackends(env());
    body.targets.forEach((t, i) => {
      const b = backends.find((x) => x.name === t.backend);
      const field = `targets.${i}.backend`;
      if (!b) throw new AppError("INVALID_REQUEST", `${field}: unknown backend '${t.backend}'`, { field });
      if (!b.roles.includes("target"))
        throw new AppError("INVALID_REQUEST", `${field}: '${t.backend}' cannot be a target`, { field });
      if (!b.available)
        throw new AppError("INVALID_REQUEST", `${field}: '${t.backend}' is unavailable (${b.note})`, { field });
    });
    // The budget cap is checked on the cells about to be queued, before any of them is written.
    const beforeQueue = await transferBudgetCheck(id, body.maxCalls);
    const ids = await createTransferCells(id, body.targets, { beforeQueue });
    let queued = 0;
    for (const cellId of ids) {
      try {
        await enqueueTransferCell(cellId);
        queued += 1;
      } catch (e) {
        // The cell stays queued in the database; a worker enqueues it again when it starts.
        console.warn(`[api] transfer cell ${cellId} not on the queue yet: ${String(e)}`);
      }
    }
    return Response.json({ cells: ids.length, queued }, { status: queued === ids.length ? 202 : 200 });
  });
}
