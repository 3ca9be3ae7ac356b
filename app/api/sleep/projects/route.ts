import { SleepProjectInputSchema } from "@/lib/contracts/sleep";
import { createSleepProject, listSleepProjects } from "@/lib/db/sleep-projects";
import { handle, jsonBody } from "@/lib/http/errors";
import { noticeDeadNights } from "../_lib/liveness";
import { checkProjectInput } from "../_lib/project-input";
import { trySyncSchedule } from "../_lib/schedule";
import { projectView } from "../_lib/views";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET() {
  return handle("list Sleep projects", async () => {
    await noticeDeadNights();
    return Response.json((await listSleepProjects()).map((p) => projectView(p)));
  });
}

/** Creates a project; its schedule goes to Redis at once when it is on (202 when Redis is away: the worker catches up). */
export function POST(req: Request) {
  return handle("create Sleep project", async () => {
    const input = SleepProjectInputSchema.parse(await jsonBody(req));
    checkProjectInput(input);
    const p = await createSleepProject(input);
    const synced = await trySyncSchedule(p);
    return Response.json({ ...projectView(p), scheduleSynced: synced }, { status: synced ? 201 : 202 });
  });
}
