import { RunIdSchema } from "@/lib/contracts/api";
import { getCostCurve } from "@/lib/db/cost-curve";
import { handle } from "@/lib/http/errors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /api/runs/{id}/cost — tokens and calls used so far after each step, with the current and best scores. */
export function GET(_req: Request, { params }: { params: Promise<{ runId: string }> }) {
  return handle("cost curve", async () => {
    const id = RunIdSchema.parse((await params).runId);
    return Response.json(await getCostCurve(id));
  });
}
