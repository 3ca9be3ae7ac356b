import { z } from "zod";
import { RunIdSchema } from "@/lib/contracts/api";
import { handle } from "@/lib/http/errors";
import { getRunStepDetail } from "@/lib/services/run-reads";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET(_req: Request, { params }: { params: Promise<{ runId: string; step: string }> }) {
  return handle("get step", async () => {
    const p = await params;
    const id = RunIdSchema.parse(p.runId);
    const step = z.coerce.number().int().min(1).max(1_000_000).parse(p.step);
    return Response.json(await getRunStepDetail(id, step));
  });
}
