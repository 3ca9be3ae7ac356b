/**
 * SkillOpt-Sleep projects: a folder and its Sleep settings, with the cron pattern the worker's job
 * scheduler runs. Input is validated by the caller (lib/contracts/sleep.ts plus the server's path and
 * cron checks); a second project on the same folder is a CONFLICT naming `directory`.
 */
import { randomUUID } from "node:crypto";
import { SLEEP_ACTIVE_STATUSES, type SleepProjectInput } from "../contracts/sleep";
import { AppError } from "../errors";
import { getDb, type Db, type DbTx } from "./client";

type Opts = { db?: DbTx };

function conflictOnDirectory(err: unknown, directory: string): never {
  if ((err as { code?: string })?.code === "P2002") {
    throw new AppError("CONFLICT", `a Sleep project already uses ${directory}`, {
      field: "directory",
      userMessage: `directory: a Sleep project already uses ${directory}`,
    });
  }
  throw err;
}

export async function createSleepProject(input: SleepProjectInput, { db = getDb() }: Opts = {}) {
  try {
    return await db.sleepProject.create({ data: { id: randomUUID(), ...input } });
  } catch (err) {
    return conflictOnDirectory(err, input.directory);
  }
}

export async function updateSleepProject(id: string, input: SleepProjectInput, { db = getDb() }: Opts = {}) {
  await getSleepProject(id, { db });
  try {
    return await db.sleepProject.update({ where: { id }, data: input });
  } catch (err) {
    return conflictOnDirectory(err, input.directory);
  }
}

export async function findSleepProject(id: string, { db = getDb() }: Opts = {}) {
  return db.sleepProject.findUnique({ where: { id } });
}

export async function getSleepProject(id: string, opts: Opts = {}) {
  const p = await findSleepProject(id, opts);
  if (!p)
    throw new AppError("NOT_FOUND", `Sleep project ${id} not found`, {
      userMessage: "This Sleep project does not exist.",
    });
  return p;
}
export type SleepProjectRow = Awaited<ReturnType<typeof getSleepProject>>;

/** Projects with their latest night, newest first. */
export async function listSleepProjects({ db = getDb() }: Opts = {}) {
  return db.sleepProject.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    include: {
      nights: { orderBy: { createdAt: "desc" }, take: 1, select: { id: true, status: true, createdAt: true } },
    },
  });
}

/** The projects whose schedule should be live (the worker reconciles its job schedulers to this list). */
export async function listScheduledSleepProjects({ db = getDb() }: Opts = {}) {
  return db.sleepProject.findMany({
    where: { enabled: true, cronPattern: { not: "" } },
    select: { id: true, cronPattern: true },
  });
}

/**
 * Deletes a project and its night rows (their gate rows go with them). Refused with CONFLICT while one of
 * its nights is queued or running: the worker would write to a row that no longer exists. Only database
 * rows go: staged folders, the live skill and the agent's transcripts are files this never touches.
 * The caller removes the project's job scheduler afterwards (lib/queue/sleep.ts).
 */
export async function deleteSleepProject(id: string, { db = getDb() }: { db?: Db } = {}) {
  return db.$transaction(async (tx) => {
    const p = await getSleepProject(id, { db: tx });
    const active = await tx.sleepNight.findFirst({
      where: { projectId: id, status: { in: [...SLEEP_ACTIVE_STATUSES] } },
      select: { night: true, status: true },
    });
    if (active)
      throw new AppError("CONFLICT", `Sleep project ${id} has a ${active.status} night`, {
        userMessage: `“${p.name}” has a night ${active.status === "queued" ? "waiting to run" : "running"}; delete it once that night has finished.`,
      });
    const nights = await tx.sleepNight.deleteMany({ where: { projectId: id } });
    await tx.sleepProject.delete({ where: { id } });
    return { project: p, nightsDeleted: nights.count };
  });
}
