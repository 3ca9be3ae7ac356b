import { RunActionSchema, RunIdSchema } from "@/lib/contracts/api";
import { appendRunEvent } from "@/lib/db/engine-events";
import { markStaleRunsInterrupted, resumeRun } from "@/lib/db/run-recovery";
import { requestCancel } from "@/lib/db/runs";
import { getRunDetail } from "@/lib/db/run-views";
import { handle, jsonBody } from "@/lib/http/errors";
import { tryEnqueueRun } from "@/lib/queue/producer";
import { deleteRunWithFiles, staleAfterMs } from "@/lib/services/run-reads";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
type Ctx = { params: Promise<{ runId: string }> };

export function GET(_req: Request, { params }: Ctx) {
  return handle("get run", async () => {
    const id = RunIdSchema.parse((await params).runId);
    await markStaleRunsInterrupted(staleAfterMs());
    return Response.json(await getRunDetail(id));
  });
}

/** Cancel or Resume. Resume never waits on Redis: when it is down the run stays queued for the workers' reconcile. */
export function PATCH(req: Request, { params }: Ctx) {
  return handle("run action", async () => {
    const id = RunIdSchema.parse((await params).runId);
    const body = RunActionSchema.parse(await jsonBody(req));
    if (body.action === "cancel") {
      const status = await requestCancel(id);
      await appendRunEvent(id, { type: "cancelRequested", status });
      return Response.json({ status });
    }
    const { status, gen } = await resumeRun(id, { budget: body.budget, staleAfterMs: staleAfterMs() });
    const queued =
      gen === null ||
      (await tryEnqueueRun(id, {
        gen,
        onError: (e) => console.warn(`[api] run ${id} resumed; not on the queue yet: ${String(e)}`),
      }));
    return Response.json({ status, queued }, { status: queued ? 200 : 202 });
  });
}

/** Deletes a stopped run with its rows and its own files (409 while it is queued, running or cancelling). */
export function DELETE(_req: Request, { params }: Ctx) {
  return handle("delete run", async () => {
    const id = RunIdSchema.parse((await params).runId);
    await markStaleRunsInterrupted(staleAfterMs());
    return Response.json(await deleteRunWithFiles(id, { rootDir: process.cwd() }));
  });
}
