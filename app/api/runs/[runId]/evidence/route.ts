import { RunIdSchema } from "@/lib/contracts/api";
import { handle } from "@/lib/http/errors";
import { getRunEvidence } from "@/lib/services/run-reads";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
type Ctx = { params: Promise<{ runId: string }> };

/** Every gate decision with its paired statistics, the A/A noise floor and the small-split warning. */
export function GET(_req: Request, { params }: Ctx) {
  return handle("get run evidence", async () => {
    const id = RunIdSchema.parse((await params).runId);
    return Response.json(await getRunEvidence(id));
  });
}
