import { RunActionSchema, RunIdSchema } from "@/lib/contracts/api";
import { appendRunEvent } from "@/lib/db/engine-events";
import { markStaleRunsInterrupted, requestCancel, requeueRun } from "@/lib/db/runs";
import { getRunDetail } from "@/lib/db/run-views";
import { handle, jsonBody } from "@/lib/http/errors";
import { enqueueRun } from "@/lib/queue/producer";
import { staleAfterMs } from "@/lib/runs/liveness";

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

export function PATCH(req: Request, { params }: Ctx) {
  return handle("run action", async () => {
    const id = RunIdSchema.parse((await params).runId);
    const body = RunActionSchema.parse(await jsonBody(req));
    if (body.action === "cancel") {
      const status = await requestCancel(id);
      await appendRunEvent(id, "cancelRequested", { status });
      return Response.json({ status });
    }
    await requeueRun(id, { budget: body.budget });
    await appendRunEvent(id, "runResumeRequested", {});
    await enqueueRun(id, { attempt: Date.now() });
    return Response.json({ status: "queued" });
  });
}
