/**
 * Status changes that recover runs without a person: a lost worker's run becomes interrupted, is restarted
 * automatically under a run-level limit (then waits for Resume with a message saying so), a queued run
 * without a job gets a new job generation, and Resume works on a run whose worker died.
 *
 * Every change is a conditional update on the state it was decided from, committed with its lifecycle event,
 * so two processes deciding at once change the run once, and a requeue yields exactly one new job id.
 */
import { errorLine } from "../contracts/error-line";
import type { RunConfig } from "../contracts/run-config";
import { holdMessage, isStale } from "../contracts/run-recovery";
import { AppError } from "../errors";
import { getDb, type Db } from "./client";
import { appendRunEventTx, TX_OPTIONS } from "./engine-events";
import { OWNED_STATUSES as OWNED } from "./run-owner";
import { getRun, RESUMABLE, runConfigOf, type RunStatus } from "./runs";

type Opts = { db?: Db };

/**
 * The owner of a running run stopped sending heartbeats: the run becomes interrupted (cancelled, when the
 * user had asked for that) and a `workerLost` event records who was lost and how it was noticed. Nothing
 * changes while the heartbeat is fresh, so a live owner is never displaced. Returns the new status, or null.
 */
export async function markWorkerLost(
  id: string,
  opts: Opts & { staleAfterMs: number; detectedBy: string },
): Promise<"interrupted" | "cancelled" | null> {
  const db = opts.db ?? getDb();
  return db.$transaction(async (tx) => {
    const run = await tx.run.findUnique({ where: { id }, select: { status: true, workerId: true, heartbeatAt: true } });
    if (!run || !OWNED.includes(run.status as RunStatus) || !isStale(run.heartbeatAt, opts.staleAfterMs)) return null;
    const cancelled = run.status === "cancelling";
    const res = await tx.run.updateMany({
      where: {
        id,
        status: run.status,
        workerId: run.workerId,
        OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: new Date(Date.now() - opts.staleAfterMs) } }],
      },
      data: cancelled
        ? { status: "cancelled", finishedAt: new Date(), stopReason: "cancelled by the user" }
        : { status: "interrupted" },
    });
    if (res.count !== 1) return null;
    await appendRunEventTx(tx, id, {
      type: "workerLost",
      workerId: run.workerId,
      lastHeartbeatAt: run.heartbeatAt?.toISOString() ?? null,
      detectedBy: opts.detectedBy,
    });
    return cancelled ? "cancelled" : "interrupted";
  }, TX_OPTIONS);
}

export type RestartResult = { kind: "restarted"; gen: number; count: number } | { kind: "held" } | null;

/**
 * An interrupted run goes back to the queue as an automatic restart while it has had fewer than `limit`
 * since it was created or last resumed by the user; at the limit it stays interrupted with
 * `holdMessage(limit)` (recorded once) until Resume. Returns the job generation to enqueue when restarted.
 */
export async function restartOrHold(id: string, opts: Opts & { limit: number }): Promise<RestartResult> {
  const db = opts.db ?? getDb();
  return db.$transaction(async (tx): Promise<RestartResult> => {
    const run = await tx.run.findUnique({
      where: { id },
      select: { status: true, autoRestarts: true, jobGen: true, errorMessage: true },
    });
    if (!run || run.status !== "interrupted") return null;
    const where = { id, status: "interrupted", autoRestarts: run.autoRestarts, jobGen: run.jobGen };
    if (run.autoRestarts < opts.limit) {
      const count = run.autoRestarts + 1;
      const gen = run.jobGen + 1;
      const res = await tx.run.updateMany({
        where,
        data: { status: "queued", workerId: null, autoRestarts: count, jobGen: gen, errorMessage: null },
      });
      if (res.count !== 1) return null;
      await appendRunEventTx(tx, id, {
        type: "runQueued",
        reason: `automatic restart ${count} of ${opts.limit}: the run continues from its last committed step`,
        autoRestart: { count, limit: opts.limit },
      });
      return { kind: "restarted", gen, count };
    }
    const message = holdMessage(opts.limit);
    if (run.errorMessage === message) return { kind: "held" };
    const res = await tx.run.updateMany({ where, data: { errorMessage: message } });
    if (res.count !== 1) return null;
    await appendRunEventTx(tx, id, { type: "runInterrupted", reason: message });
    return { kind: "held" };
  }, TX_OPTIONS);
}

/** A queued run whose job is gone gets the next job generation; exactly one caller wins it and enqueues. */
export async function bumpJobGen(id: string, seenGen: number, { db = getDb() }: Opts = {}): Promise<number | null> {
  const res = await db.run.updateMany({
    where: { id, status: "queued", jobGen: seenGen },
    data: { jobGen: seenGen + 1 },
  });
  return res.count === 1 ? seenGen + 1 : null;
}

/**
 * A worker shutting down puts the run it owns back in the queue (never counted as a restart). Returns the
 * job generation to enqueue, or null when the run is no longer this worker's to give back.
 */
export async function requeueAfterShutdown(
  id: string,
  workerId: string,
  { db = getDb() }: Opts = {},
): Promise<number | null> {
  return db.$transaction(async (tx) => {
    const run = await tx.run.findUnique({ where: { id }, select: { jobGen: true } });
    if (!run) return null;
    const gen = run.jobGen + 1;
    const res = await tx.run.updateMany({
      where: { id, workerId, status: "running" },
      data: { status: "queued", workerId: null, jobGen: gen },
    });
    if (res.count !== 1) return null;
    await appendRunEventTx(tx, id, {
      type: "runQueued",
      reason: "worker shut down; the run continues on the next worker",
    });
    return gen;
  }, TX_OPTIONS);
}

/**
 * The user's Resume: an interrupted, failed or budget-exhausted run goes back to the queue with a fresh
 * allowance of automatic restarts. A run whose worker died (stale heartbeat) is first marked lost, so
 * Resume works without waiting for a page load. A run that is already queued is left as it is (a second
 * click adds no job). `budget` replaces the run's budget section (a paused run needs a larger one).
 * Returns the job generation to enqueue, or null when nothing was requeued.
 */
export async function resumeRun(
  id: string,
  opts: Opts & { staleAfterMs: number; budget?: RunConfig["budget"] },
): Promise<{ status: RunStatus; gen: number | null }> {
  const db = opts.db ?? getDb();
  let run = await getRun(id, { db });
  if (OWNED.includes(run.status as RunStatus) && isStale(run.heartbeatAt, opts.staleAfterMs)) {
    await markWorkerLost(id, {
      db,
      staleAfterMs: opts.staleAfterMs,
      detectedBy: "Resume found no heartbeat from its worker",
    });
    run = await getRun(id, { db });
  }
  if (run.status === "queued") return { status: "queued", gen: null };
  if (run.source === "cli") {
    const how = run.outDir
      ? `npm run skillopt -- train --resume ${run.outDir}`
      : "npm run skillopt -- train --resume DIR";
    throw new AppError("CONFLICT", `run ${id} was trained by the CLI`, {
      userMessage: `This run was started from the command line and keeps its checkpoint in its folder: resume it with ${how}`,
    });
  }
  if (!RESUMABLE.includes(run.status as RunStatus)) {
    throw new AppError("CONFLICT", `run ${id} is ${run.status}`, {
      userMessage: `Only interrupted, failed, cancelled or budget-exhausted runs can be resumed (this one is ${run.status}).`,
    });
  }
  const configJson = opts.budget ? JSON.stringify({ ...runConfigOf(run), budget: opts.budget }) : undefined;
  const gen = run.jobGen + 1;
  const won = await db.$transaction(async (tx) => {
    const res = await tx.run.updateMany({
      where: { id, status: run.status, jobGen: run.jobGen },
      data: {
        status: "queued",
        workerId: null,
        cancelRequested: false,
        errorMessage: null,
        // A resumed run is no longer stopped ("cancelled by the user" would otherwise outlive the resume).
        stopReason: null,
        finishedAt: null,
        configJson,
        autoRestarts: 0,
        jobGen: gen,
      },
    });
    if (res.count !== 1) return false;
    await appendRunEventTx(tx, id, { type: "runResumeRequested" });
    return true;
  }, TX_OPTIONS);
  if (won) return { status: "queued", gen };
  // Someone else moved it first (an automatic restart, a second click): report where it is now.
  const now = await getRun(id, { db });
  if (now.status === "queued" || OWNED.includes(now.status as RunStatus))
    return { status: now.status as RunStatus, gen: null };
  throw new AppError("CONFLICT", `run ${id} is ${now.status}`, {
    userMessage: `This run is ${now.status}; reload and try again.`,
  });
}

/** Running runs whose worker stopped sending heartbeats: shown as interrupted, never as a spinner. */
export async function markStaleRunsInterrupted(olderThanMs: number, { db = getDb() }: Opts = {}): Promise<number> {
  const stale = await db.run.findMany({
    where: { status: { in: [...OWNED] }, heartbeatAt: { lt: new Date(Date.now() - olderThanMs) } },
    select: { id: true },
  });
  let n = 0;
  for (const r of stale) {
    const detectedBy = `the dashboard saw no heartbeat for ${Math.round(olderThanMs / 1000)} s`;
    try {
      if (await markWorkerLost(r.id, { db, staleAfterMs: olderThanMs, detectedBy })) n += 1;
    } catch (e) {
      // Only the display waits for this (the workers recover the run themselves): a busy database must
      // not turn a page load into an error.
      console.warn(`[api] run ${r.id}: not marked interrupted yet: ${errorLine(e)}`);
    }
  }
  return n;
}

/** The runs a reconcile pass looks at: everything that should be, or may have been, on the queue. */
export async function listRunsToReconcile({ db = getDb() }: Opts = {}) {
  return db.run.findMany({
    // CLI runs are recorded here but trained by their own process: no worker ever queues them.
    where: { status: { in: ["queued", "interrupted", ...OWNED] }, source: { not: "cli" } },
    select: {
      id: true,
      status: true,
      workerId: true,
      heartbeatAt: true,
      autoRestarts: true,
      jobGen: true,
      errorMessage: true,
      updatedAt: true,
    },
    orderBy: { createdAt: "asc" },
  });
}
export type ReconcileRunRow = Awaited<ReturnType<typeof listRunsToReconcile>>[number];
