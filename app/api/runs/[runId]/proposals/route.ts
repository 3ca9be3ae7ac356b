import { RunIdSchema } from "@/lib/contracts/api";
import { handle } from "@/lib/http/errors";
import { getRunProposals } from "@/lib/services/run-reads";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
type Ctx = { params: Promise<{ runId: string }> };

/** Every proposed edit of the run through merge, selection, application and the gate. */
export function GET(_req: Request, { params }: Ctx) {
  return handle("get run proposals", async () => {
    const id = RunIdSchema.parse((await params).runId);
    return Response.json({ rows: await getRunProposals(id) });
  });
}
