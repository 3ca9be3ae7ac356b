import { z } from "zod";
import { RunIdSchema } from "@/lib/contracts/api";
import { toItemHistoryWire, type ItemHistoryWire } from "@/lib/contracts/item-history";
import { getItemHistory } from "@/lib/db/item-history";
import { handle } from "@/lib/http/errors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const Query = z.object({ split: z.enum(["selection", "train"]).default("selection") });

/**
 * GET /api/runs/{id}/items?split=selection|train — every item's result at every evaluation of the run (its
 * measured codes; the current results and changes follow from them: `expandItemHistory`).
 */
export function GET(req: Request, { params }: { params: Promise<{ runId: string }> }) {
  return handle("item history", async () => {
    const id = RunIdSchema.parse((await params).runId);
    const q = Query.parse(Object.fromEntries(new URL(req.url).searchParams));
    return Response.json(toItemHistoryWire(await getItemHistory(id, q.split)) satisfies ItemHistoryWire);
  });
}
