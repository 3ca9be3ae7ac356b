import { SleepIdSchema, SleepNightActionSchema } from "@/lib/contracts/sleep";
import { getNight } from "@/lib/db/sleep-nights";
import { handle, jsonBody } from "@/lib/http/errors";
import { noticeDeadNights } from "../../_lib/liveness";
import { adoptStagedNight, discardNight } from "../../_lib/night-actions";
import { nightDetail } from "../../_lib/views";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
type Ctx = { params: Promise<{ nightId: string }> };

export function GET(_req: Request, { params }: Ctx) {
  return handle("get Sleep night", async () => {
    const id = SleepIdSchema.parse((await params).nightId);
    await noticeDeadNights();
    return Response.json(await nightDetail(await getNight(id)));
  });
}

/** Adopt (refused with 409 when a live file changed since the night started) or Discard. */
export function PATCH(req: Request, { params }: Ctx) {
  return handle("Sleep night action", async () => {
    const id = SleepIdSchema.parse((await params).nightId);
    const { action } = SleepNightActionSchema.parse(await jsonBody(req));
    await noticeDeadNights();
    if (action === "adopt") return Response.json({ status: "adopted", updatedPaths: await adoptStagedNight(id) });
    return Response.json({ status: "discarded", removedDir: await discardNight(id) });
  });
}
