import { z } from "zod";
import { RunIdSchema } from "@/lib/contracts/api";
import { listEvalResults } from "@/lib/db/run-views";
import { handle } from "@/lib/http/errors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const Query = z.object({ step: z.coerce.number().int().min(0).optional(), label: z.string().max(32).optional() });

export function GET(req: Request, { params }: { params: Promise<{ runId: string }> }) {
  return handle("list evals", async () => {
    const id = RunIdSchema.parse((await params).runId);
    const q = Query.parse(Object.fromEntries(new URL(req.url).searchParams));
    return Response.json({ results: await listEvalResults(id, q) });
  });
}
