import { RunIdSchema } from "@/lib/contracts/api";
import { handle } from "@/lib/http/errors";
import { getRunLeakage } from "@/lib/services/run-reads";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
type Ctx = { params: Promise<{ runId: string }> };

/** Items duplicated across splits and skill lines holding selection or test data. */
export function GET(_req: Request, { params }: Ctx) {
  return handle("get run leakage", async () => {
    const id = RunIdSchema.parse((await params).runId);
    return Response.json(await getRunLeakage(id, process.cwd()));
  });
}
