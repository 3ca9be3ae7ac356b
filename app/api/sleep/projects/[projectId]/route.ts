import { SleepIdSchema, SleepProjectInputSchema } from "@/lib/contracts/sleep";
import { deleteSleepProject, getSleepProject, updateSleepProject } from "@/lib/db/sleep-projects";
import { handle, jsonBody } from "@/lib/http/errors";
import { noticeDeadNights } from "../../_lib/liveness";
import { checkProjectInput } from "../../_lib/project-input";
import { trySyncSchedule } from "../../_lib/schedule";
import { projectView } from "../../_lib/views";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
type Ctx = { params: Promise<{ projectId: string }> };

export function GET(_req: Request, { params }: Ctx) {
  return handle("get Sleep project", async () => {
    const id = SleepIdSchema.parse((await params).projectId);
    await noticeDeadNights();
    return Response.json(projectView(await getSleepProject(id)));
  });
}

export function PUT(req: Request, { params }: Ctx) {
  return handle("update Sleep project", async () => {
    const id = SleepIdSchema.parse((await params).projectId);
    const input = SleepProjectInputSchema.parse(await jsonBody(req));
    checkProjectInput(input);
    const p = await updateSleepProject(id, input);
    const synced = await trySyncSchedule(p);
    return Response.json({ ...projectView(p), scheduleSynced: synced }, { status: synced ? 200 : 202 });
  });
}

/**
 * Deletes the project and its night rows (409 while a night of it is queued or running), then its job
 * scheduler; 202 when Redis is away (the worker drops the stale scheduler when it reconciles at start).
 */
export function DELETE(_req: Request, { params }: Ctx) {
  return handle("delete Sleep project", async () => {
    const id = SleepIdSchema.parse((await params).projectId);
    await noticeDeadNights(); // a night whose process died no longer holds the project
    const { nightsDeleted } = await deleteSleepProject(id);
    const synced = await trySyncSchedule({ id, cronPattern: "", enabled: false });
    return Response.json({ deleted: id, nightsDeleted, scheduleSynced: synced }, { status: synced ? 200 : 202 });
  });
}
