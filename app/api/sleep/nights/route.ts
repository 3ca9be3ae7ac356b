import { z } from "zod";
import { SleepIdSchema } from "@/lib/contracts/sleep";
import { listNights } from "@/lib/db/sleep-nights";
import { handle } from "@/lib/http/errors";
import { noticeDeadNights } from "../_lib/liveness";
import { nightSummary } from "../_lib/views";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const QuerySchema = z.object({
  projectId: SleepIdSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

export function GET(req: Request) {
  return handle("list Sleep nights", async () => {
    const q = QuerySchema.parse(Object.fromEntries(new URL(req.url).searchParams));
    await noticeDeadNights();
    return Response.json((await listNights(q)).map(nightSummary));
  });
}
