import { IdempotencyKeySchema, type CreateRunInput, type CreateRunResponse } from "@/lib/contracts/api";
import { RunsTableQuerySchema } from "@/lib/contracts/run-list";
import { listRunsTableJson } from "@/lib/db/run-list";
import { markStaleRunsInterrupted } from "@/lib/db/run-recovery";
import { RUN_REQUEST_BODY } from "@/lib/http/body";
import { AppError } from "@/lib/errors";
import { handle, jsonBody } from "@/lib/http/errors";
import { createRunFromRequest } from "@/lib/services/new-run";
import { staleAfterMs } from "@/lib/services/run-reads";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET(req: Request) {
  return handle("list runs", async () => {
    const q = RunsTableQuerySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
    await markStaleRunsInterrupted(staleAfterMs());
    // A RunListResponse, as JSON text built from the database's own JSON rows (lib/db/run-list-json.ts).
    return new Response(await listRunsTableJson(q), { headers: { "content-type": "application/json" } });
  });
}

function requestKeyOf(req: Request): string | undefined {
  const raw = req.headers.get("idempotency-key");
  if (raw === null) return undefined;
  const parsed = IdempotencyKeySchema.safeParse(raw);
  if (!parsed.success)
    throw new AppError("INVALID_REQUEST", `Idempotency-Key: ${parsed.error.issues[0]!.message}`, {
      field: "Idempotency-Key",
    });
  return parsed.data;
}

/** 201 created and queued; 202 created, queued once Redis is back; 200 the run an earlier request with this Idempotency-Key created. */
export function POST(req: Request) {
  return handle("create run", async () => {
    const requestKey = requestKeyOf(req);
    const body = (await jsonBody(req, RUN_REQUEST_BODY)) as CreateRunInput;
    const run = await createRunFromRequest(body, process.cwd(), { requestKey });
    const headers = { Location: `/runs/${run.id}` };
    if (run.replayed)
      return Response.json({ id: run.id, queued: true } satisfies CreateRunResponse, { status: 200, headers });
    if (!run.queued) {
      const message =
        "The run is saved and queued, but the queue (Redis) is not answering; it starts as soon as Redis is back.";
      return Response.json({ id: run.id, queued: false, message } satisfies CreateRunResponse, {
        status: 202,
        headers,
      });
    }
    return Response.json({ id: run.id, queued: true } satisfies CreateRunResponse, { status: 201, headers });
  });
}
