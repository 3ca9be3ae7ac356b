import { RunIdSchema } from "@/lib/contracts/api";
import { handle } from "@/lib/http/errors";
import { getRunBlame } from "@/lib/services/run-reads";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
type Ctx = { params: Promise<{ runId: string }> };

/** Each line of the best skill and the change that introduced or last changed it. */
export function GET(_req: Request, { params }: Ctx) {
  return handle("get run blame", async () => {
    const id = RunIdSchema.parse((await params).runId);
    return Response.json({ lines: await getRunBlame(id) });
  });
}
