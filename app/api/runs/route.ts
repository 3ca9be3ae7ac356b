import { ListRunsQuerySchema, type RunListResponse } from "@/lib/contracts/api";
import { listRunEnvs, listRuns, markStaleRunsInterrupted } from "@/lib/db/runs";
import { toListItem } from "@/lib/db/run-views";
import { RUN_REQUEST_BODY } from "@/lib/http/body";
import { handle, jsonBody } from "@/lib/http/errors";
import { createRunFromRequest } from "@/lib/runs/create";
import type { CreateRunInput } from "@/lib/contracts/api";
import { staleAfterMs } from "@/lib/runs/liveness";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET(req: Request) {
  return handle("list runs", async () => {
    const q = ListRunsQuerySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
    await markStaleRunsInterrupted(staleAfterMs());
    const [{ runs, nextCursor }, envs] = await Promise.all([listRuns(q), listRunEnvs()]);
    return Response.json({ runs: runs.map(toListItem), nextCursor, envs } satisfies RunListResponse);
  });
}

export function POST(req: Request) {
  return handle("create run", async () => {
    const body = (await jsonBody(req, RUN_REQUEST_BODY)) as CreateRunInput;
    const { id } = await createRunFromRequest(body, process.cwd());
    return Response.json({ id }, { status: 201, headers: { Location: `/runs/${id}` } });
  });
}
