import { RunIdSchema } from "@/lib/contracts/api";
import { handle } from "@/lib/http/errors";
import { getRunDataset } from "@/lib/services/run-reads";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
type Ctx = { params: Promise<{ runId: string }> };

/** Hashes of the run's data file and splits. */
export function GET(_req: Request, { params }: Ctx) {
  return handle("get run dataset", async () => {
    const id = RunIdSchema.parse((await params).runId);
    return Response.json(await getRunDataset(id, process.cwd()));
  });
}
