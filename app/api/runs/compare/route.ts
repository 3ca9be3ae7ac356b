import { z } from "zod";
import { RunIdSchema } from "@/lib/contracts/api";
import { compareRuns } from "@/lib/db/compare";
import { handle } from "@/lib/http/errors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const Ids = z.array(RunIdSchema).min(2, "pick at least two runs").max(8, "compare at most eight runs");

export function GET(req: Request) {
  return handle("compare runs", async () => {
    const raw = (new URL(req.url).searchParams.get("ids") ?? "").split(",").filter(Boolean);
    const ids = z.object({ ids: Ids }).parse({ ids: [...new Set(raw)] }).ids;
    return Response.json(await compareRuns(ids));
  });
}
