import { SleepIdSchema, SleepRunRequestSchema } from "@/lib/contracts/sleep";
import { createQueuedNight } from "@/lib/db/sleep-nights";
import { getSleepProject } from "@/lib/db/sleep-projects";
import { handle, jsonBody } from "@/lib/http/errors";
import { enqueueSleepNight } from "@/lib/queue/sleep";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
type Ctx = { params: Promise<{ projectId: string }> };

/** Run now / Dry run: a queued night row, then its job (when Redis is away the row waits for a worker's start-up reconcile). */
export function POST(req: Request, { params }: Ctx) {
  return handle("queue Sleep night", async () => {
    const project = await getSleepProject(SleepIdSchema.parse((await params).projectId));
    const { dryRun } = SleepRunRequestSchema.parse(await jsonBody(req));
    const night = await createQueuedNight({
      projectId: project.id,
      projectDir: project.directory,
      trigger: "manual",
      dryRun,
    });
    const queued = await enqueueSleepNight(night.id).then(
      () => true,
      (e: unknown) => (console.warn(`[api] Sleep night ${night.id} queued in the database only: ${String(e)}`), false),
    );
    return Response.json({ id: night.id, queued }, { status: queued ? 201 : 202 });
  });
}
