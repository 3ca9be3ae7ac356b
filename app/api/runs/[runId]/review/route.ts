import { RunIdSchema } from "@/lib/contracts/api";
import { SubmitReviewSchema } from "@/lib/contracts/review";
import { listRunReviews, submitReview } from "@/lib/db/gate-reviews";
import { handle, jsonBody } from "@/lib/http/errors";
import { tryEnqueueRun } from "@/lib/queue/producer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
type Ctx = { params: Promise<{ runId: string }> };

/** The open review the run waits on (candidate, current skill, gate evidence) and the settled ones. */
export function GET(_req: Request, { params }: Ctx) {
  return handle("get reviews", async () => {
    const id = RunIdSchema.parse((await params).runId);
    return Response.json(await listRunReviews(id));
  });
}

/** Accept / Reject / Edit-then-accept the candidate at the gate; the run goes back on the queue. */
export function POST(req: Request, { params }: Ctx) {
  return handle("submit review", async () => {
    const id = RunIdSchema.parse((await params).runId);
    const body = SubmitReviewSchema.parse(await jsonBody(req));
    const { gen } = await submitReview(id, body);
    const queued =
      gen === null ||
      (await tryEnqueueRun(id, {
        gen,
        onError: (e) => console.warn(`[api] run ${id} reviewed; not on the queue yet: ${String(e)}`),
      }));
    return Response.json({ decision: body.decision, queued }, { status: queued ? 200 : 202 });
  });
}
