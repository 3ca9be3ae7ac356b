/**
 * SkillOpt-Sleep night rows: the queued row a dashboard "Run now" creates, the recorder the cycle writes
 * through (CLI and worker alike), the per-task gate rows, and the status changes adopt and discard make.
 * Every string that came from a night (report, notes, edits, errors) is redacted before it is written.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { redactDeep, redactText } from "../contracts/redact";
import type { SleepNightStatus } from "../contracts/sleep";
import { AppError } from "../errors";
import type { NightOwner } from "../sleep/liveness";
import type { NightFinish, NightRecorder, NightStart } from "../sleep/recorder";
import { getDb, type Db, type DbTx } from "./client";

type Opts = { db?: DbTx };

export interface NewQueuedNight {
  projectId: string;
  projectDir: string;
  trigger: "manual" | "schedule";
  dryRun: boolean;
}

/** A queued night for the worker; create it before enqueueing (the worker may start at once). */
export async function createQueuedNight(input: NewQueuedNight, { db = getDb() }: Opts = {}) {
  return db.sleepNight.create({ data: { id: randomUUID(), ...input, status: "queued" } });
}

export async function findNight(id: string, { db = getDb() }: Opts = {}) {
  return db.sleepNight.findUnique({ where: { id }, include: { project: { select: { name: true } } } });
}

export async function getNight(id: string, opts: Opts = {}) {
  const row = await findNight(id, opts);
  if (!row) throw new AppError("NOT_FOUND", `night ${id} not found`, { userMessage: "This night does not exist." });
  return row;
}
export type SleepNightRow = Awaited<ReturnType<typeof getNight>>;

export async function listNights(filter: { projectId?: string; limit?: number } = {}, { db = getDb() }: Opts = {}) {
  return db.sleepNight.findMany({
    where: filter.projectId ? { projectId: filter.projectId } : {},
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: Math.min(filter.limit ?? 100, 500),
    include: { project: { select: { name: true } } },
  });
}

export async function listGateRows(nightId: string, { db = getDb() }: Opts = {}) {
  return db.sleepGateRow.findMany({ where: { nightId }, orderBy: { ord: "asc" } });
}

/** Claims a queued night for a worker; false when another worker (or a duplicate job) already has it. */
export async function claimNight(id: string, { db = getDb() }: Opts = {}): Promise<boolean> {
  const r = await db.sleepNight.updateMany({ where: { id, status: "queued" }, data: { status: "running" } });
  return r.count === 1;
}

/**
 * Moves a night from one of `from` to `to`; throws CONFLICT naming the current status otherwise, so two
 * clicks (or a CLI adopt and a dashboard discard) cannot both win.
 */
export async function markNightStatus(
  id: string,
  from: readonly SleepNightStatus[],
  to: SleepNightStatus,
  { db = getDb() }: Opts = {},
): Promise<void> {
  const r = await db.sleepNight.updateMany({
    where: { id, status: { in: [...from] } },
    data: { status: to, ...(to === "adopted" ? { adoptedAt: new Date() } : {}) },
  });
  if (r.count === 1) return;
  const row = await getNight(id, { db });
  throw new AppError("CONFLICT", `night ${id} is ${row.status}, not ${from.join(" or ")}`, {
    userMessage: `This night is ${row.status.replace("_", " ")}; it cannot become ${to}.`,
  });
}

/** Marks a night failed with a redacted reason (the worker, when the cycle threw before recording). */
export async function markNightFailed(id: string, message: string, { db = getDb() }: Opts = {}): Promise<void> {
  await db.sleepNight.updateMany({
    where: { id, status: { in: ["queued", "running"] } },
    data: { status: "failed", error: redactText(message).slice(0, 2000), endedAt: new Date() },
  });
}

function finishedStatus(f: NightFinish): SleepNightStatus {
  if (f.dryRun) return "dry_run";
  if (f.outcome.report.nTasks === 0) return "no_tasks";
  return f.outcome.adopted ? "adopted" : "staged";
}

function gateRows(nightId: string, f: NightFinish) {
  let ord = 0;
  return f.outcome.report.gateTrials.flatMap((t) =>
    t.taskDeltas.map((d) => ({
      nightId,
      ord: ord++,
      trial: t.target,
      taskId: redactText(d.taskId),
      baselineScore: d.baselineScore,
      candidateScore: d.candidateScore,
      status: d.status,
    })),
  );
}

function finishedData(f: NightFinish) {
  const r = redactDeep(f.outcome.report);
  return {
    status: finishedStatus(f),
    nSessions: r.nSessions,
    nTasks: r.nTasks,
    nTrain: f.splits.train,
    nVal: f.splits.val,
    nTest: f.splits.test,
    baselineScore: r.nTasks > 0 ? r.baselineScore : null,
    candidateScore: r.nTasks > 0 ? r.candidateScore : null,
    accepted: r.accepted,
    gateAction: r.gateAction,
    editsAccepted: r.edits.length,
    editsRejected: r.rejectedEdits.length,
    editsUnmatched: r.unmatchedEdits.length,
    tokensUsed: r.tokensUsed,
    stagingDir: f.outcome.stagingDir,
    evidencePath: f.outcome.evidencePath,
    liveSkillPath: f.liveSkillPath,
    reportJson: JSON.stringify(r),
    endedAt: new Date(f.endedAt),
    ...(f.outcome.adopted ? { adoptedAt: new Date(f.endedAt) } : {}),
  };
}

export interface RecorderOptions {
  db?: Db;
  /** The queued row a dashboard request created; absent for CLI nights (a row is created at the start). */
  nightId?: string;
  trigger: "cli" | "manual" | "schedule";
  /** Who runs the night (this process by default) and how often it refreshes its heartbeat (5 s). */
  owner?: { pid: number; host: string };
  heartbeatMs?: number;
}

/**
 * While a night runs, its owner and heartbeat ride in reportJson (the report replaces them when the night
 * ends); lib/sleep/liveness.ts decides from them when the night's process is dead.
 */
function startHeartbeat(db: Db, id: string, owner: { pid: number; host: string }, everyMs: number) {
  const json = (): string => JSON.stringify({ owner: { ...owner, heartbeatAt: Date.now() } satisfies NightOwner });
  const timer = setInterval(() => {
    db.sleepNight.updateMany({ where: { id, status: "running" }, data: { reportJson: json() } }).catch(() => {}); // a missed beat is harmless; the next one (or the night's end) writes again
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** The recorder the cycle writes through. A CLI night joins the project registered for its folder, if any. */
export function createNightRecorder(opts: RecorderOptions): NightRecorder & { nightId: () => string | undefined } {
  const db = opts.db ?? getDb();
  let id = opts.nightId;
  let beat: ReturnType<typeof startHeartbeat> | null = null;
  const owner = opts.owner ?? { pid: process.pid, host: hostname() };
  const stopBeat = () => {
    beat?.stop();
    beat = null;
  };
  const started = async (s: NightStart) => {
    stopBeat();
    const data = {
      night: s.night,
      dryRun: s.dryRun,
      backend: s.backend,
      startedAt: new Date(s.startedAt),
      status: "running",
      reportJson: JSON.stringify({ owner: { ...owner, heartbeatAt: Date.now() } satisfies NightOwner }),
    };
    const begin = (nightId: string) => {
      id = nightId;
      beat = startHeartbeat(db, nightId, owner, opts.heartbeatMs ?? 5_000);
    };
    if (id) {
      await db.sleepNight.update({ where: { id }, data });
      return begin(id);
    }
    // A handoff night is re-run once per round of answers with the same night number: one row, not one per
    // round. An interrupted night (its process died) had its state left unsaved: the re-run is that night again.
    const waiting = await db.sleepNight.findFirst({
      where: { projectDir: s.project, night: s.night, status: { in: ["handoff_pending", "interrupted"] } },
      select: { id: true },
    });
    if (waiting) {
      await db.sleepNight.update({ where: { id: waiting.id }, data: { ...data, error: "", endedAt: null } });
      return begin(waiting.id);
    }
    const project = await db.sleepProject.findUnique({ where: { directory: s.project }, select: { id: true } });
    const newId = randomUUID();
    await db.sleepNight.create({
      data: { id: newId, projectId: project?.id ?? null, projectDir: s.project, trigger: opts.trigger, ...data },
    });
    begin(newId);
  };
  return {
    nightId: () => id,
    started,
    async finished(f) {
      stopBeat();
      if (!id) throw new Error("finished before started");
      const nightId = id;
      await db.$transaction(async (tx) => {
        await tx.sleepNight.update({ where: { id: nightId }, data: finishedData(f) });
        await tx.sleepGateRow.deleteMany({ where: { nightId } });
        const rows = gateRows(nightId, f);
        if (rows.length > 0) await tx.sleepGateRow.createMany({ data: rows });
      });
    },
    async failed(f) {
      stopBeat();
      if (!id) return;
      const status = f.pending ? "handoff_pending" : "failed";
      // A waiting handoff night keeps where its prompts are in reportJson (the night's report replaces it when it completes).
      await db.sleepNight.update({
        where: { id },
        data: {
          status,
          error: redactText(f.message).slice(0, 2000),
          endedAt: new Date(f.endedAt),
          reportJson: f.pending && f.handoff ? JSON.stringify({ handoff: redactDeep(f.handoff) }) : "{}",
        },
      });
    },
  };
}

/** Nights still waiting for a worker (re-enqueued at worker start: a "Run now" made while Redis was away). */
export async function listQueuedNightIds({ db = getDb() }: Opts = {}): Promise<string[]> {
  return (
    await db.sleepNight.findMany({ where: { status: "queued" }, select: { id: true }, orderBy: { createdAt: "asc" } })
  ).map((n) => n.id);
}

/** A staged night adopted outside the dashboard (`sleep adopt`): its row follows. Returns whether a row changed. */
export async function markNightAdoptedByStaging(stagingDir: string, { db = getDb() }: Opts = {}): Promise<boolean> {
  const r = await db.sleepNight.updateMany({
    where: { stagingDir, status: "staged" },
    data: { status: "adopted", adoptedAt: new Date() },
  });
  return r.count > 0;
}
