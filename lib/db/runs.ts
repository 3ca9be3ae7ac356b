/**
 * Run rows: creation, listing with filters, the claim that makes a worker the run's owner, status
 * changes and cancellation. `find*` returns null, `get*` throws AppError("NOT_FOUND").
 */
import { RunConfigSchema, type RunConfig } from "../contracts/run-config";
import { RESUMABLE_STATUSES } from "../contracts/run-recovery";
import type { RunStatus } from "../contracts/run-status";
import { AppError } from "../errors";
import { getDb, type DbTx } from "./client";

export type { RunStatus } from "../contracts/run-status";
/** Statuses of a run that stopped before its end and waits (for Resume, a budget, a reviewer). */
export const WAITING: readonly RunStatus[] = ["interrupted", "budget_exhausted", "awaiting_review"];
/** Statuses a run never leaves on its own. */
export const FINISHED: readonly RunStatus[] = ["cancelled", "succeeded", "failed"];

type Opts = { db?: DbTx };

export interface NewRun {
  id: string;
  name: string;
  config: RunConfig;
  sourceYaml: string;
  seedSkill: string;
  optimizerBackend: string;
  targetBackend: string;
  /** The models the roles really use (a backend may replace the shipped default). */
  optimizerModel?: string;
  targetModel?: string;
  simulated: boolean;
  stepsTotal: number;
  /** The creating request's Idempotency-Key and a hash of its body: a retried request finds this run. */
  requestKey?: string;
  requestHash?: string;
}

/** Creates a queued run. Call it before enqueueing: a worker may start the job at once. */
export async function createRun(input: NewRun, { db = getDb() }: Opts = {}) {
  return db.run.create({
    data: {
      id: input.id,
      name: input.name,
      env: input.config.env.name,
      configJson: JSON.stringify(input.config),
      sourceYaml: input.sourceYaml,
      seedSkill: input.seedSkill,
      optimizerBackend: input.optimizerBackend,
      optimizerModel: input.optimizerModel ?? input.config.model.optimizer,
      targetBackend: input.targetBackend,
      targetModel: input.targetModel ?? input.config.model.target,
      simulated: input.simulated,
      stepsTotal: input.stepsTotal,
      numEpochs: input.config.train.num_epochs,
      requestKey: input.requestKey,
      requestHash: input.requestHash,
    },
  });
}

export type RunRow = NonNullable<Awaited<ReturnType<typeof findRun>>>;

export async function findRun(id: string, { db = getDb() }: Opts = {}) {
  return db.run.findUnique({ where: { id } });
}

/** The run a request with this Idempotency-Key created, if any. */
export async function findRunByRequestKey(requestKey: string, { db = getDb() }: Opts = {}) {
  return db.run.findUnique({ where: { requestKey }, select: { id: true, status: true, requestHash: true } });
}

/** Only the run's status (the SSE tail asks after every quiet read), or null for an unknown run. */
export async function findRunStatus(id: string, { db = getDb() }: Opts = {}): Promise<string | null> {
  return (await db.run.findUnique({ where: { id }, select: { status: true } }))?.status ?? null;
}

export async function getRun(id: string, opts: Opts = {}) {
  const run = await findRun(id, opts);
  if (!run) throw new AppError("NOT_FOUND", `run ${id} not found`, { userMessage: "This run does not exist." });
  return run;
}

/**
 * NOT_FOUND for an unknown run, as `getRun`, reading only the id: a route that only needs the 404 does not
 * read the run's config, YAML and seed skill (tens of KB on real runs).
 */
export async function requireRun(id: string, { db = getDb() }: Opts = {}): Promise<void> {
  const run = await db.run.findUnique({ where: { id }, select: { id: true } });
  if (!run) throw new AppError("NOT_FOUND", `run ${id} not found`, { userMessage: "This run does not exist." });
}

/**
 * The run's config, parsed from its JSON column with the config schema. A stored config that no longer
 * parses (written by an older version, edited by hand) is a clear error naming the run and the field.
 */
export function runConfigOf(run: { id: string; configJson: string }): RunConfig {
  const fail = (field: string, problem: string) => {
    const message = `run ${run.id}: its stored config ${field ? `field ${field} ` : ""}no longer parses: ${problem}`;
    return new AppError("CONFLICT", message, { userMessage: message, field: field || "config" });
  };
  let raw: unknown;
  try {
    raw = JSON.parse(run.configJson);
  } catch (e) {
    throw fail("", `not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = RunConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  throw fail(first ? first.path.map(String).join(".") : "", first?.message ?? "invalid");
}

/** The columns the runs table shows (no skill or config text). */
export const RUN_LIST_SELECT = {
  id: true,
  name: true,
  status: true,
  env: true,
  optimizerBackend: true,
  optimizerModel: true,
  targetBackend: true,
  targetModel: true,
  simulated: true,
  source: true,
  baselineScore: true,
  bestScore: true,
  bestOrigin: true,
  bestMeasuredBy: true,
  bestBytes: true,
  testInitial: true,
  testBest: true,
  stepsDone: true,
  stepsTotal: true,
  epoch: true,
  numEpochs: true,
  calls: true,
  promptTokens: true,
  completionTokens: true,
  costUsd: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  errorMessage: true,
} as const;

export async function listRuns(
  filter: { status?: string; env?: string; limit?: number; cursor?: string },
  { db = getDb() }: Opts = {},
) {
  const limit = Math.min(Math.max(filter.limit ?? 100, 1), 1000);
  const rows = await db.run.findMany({
    where: { status: filter.status || undefined, env: filter.env || undefined },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    ...(filter.cursor ? { cursor: { id: filter.cursor }, skip: 1 } : {}),
    select: RUN_LIST_SELECT,
  });
  const more = rows.length > limit;
  return { runs: rows.slice(0, limit), nextCursor: more ? rows[limit - 1]!.id : null };
}

/** Distinct benchmark names that have runs, for the list filter. */
export async function listRunEnvs({ db = getDb() }: Opts = {}): Promise<string[]> {
  // GROUP BY in SQL (over the env index): Prisma's `distinct` reads every run row and dedups in memory,
  // which cost the runs table ~80 ms per request at 10,000 runs.
  const rows = await db.run.groupBy({ by: ["env"], orderBy: { env: "asc" } });
  return rows.map((r) => r.env);
}

/**
 * Makes `workerId` the owner of a queued run (a conditional update: exactly one worker wins). A job for a
 * run that is running elsewhere, interrupted (it waits for a restart or Resume, which queue it first),
 * finished or cancelled claims nothing.
 */
export async function claimRun(id: string, workerId: string, { db = getDb() }: Opts = {}): Promise<boolean> {
  const now = new Date();
  const res = await db.run.updateMany({
    where: { id, status: "queued", cancelRequested: false },
    data: { status: "running", workerId, heartbeatAt: now, startedAt: now, errorMessage: null },
  });
  return res.count === 1;
}

export async function heartbeat(id: string, workerId: string, { db = getDb() }: Opts = {}): Promise<void> {
  await db.run.updateMany({ where: { id, workerId }, data: { heartbeatAt: new Date() } });
}

/**
 * Records how a run ended. With `ownerId`, only while that worker still owns the run (a worker that lost
 * it to a take-over must not overwrite the new owner's state); returns whether the row changed.
 */
export async function markRunFinished(
  id: string,
  status: Extract<
    RunStatus,
    "succeeded" | "failed" | "cancelled" | "interrupted" | "budget_exhausted" | "awaiting_review"
  >,
  extra: { errorMessage?: string; stopReason?: string } = {},
  { db = getDb(), ownerId }: Opts & { ownerId?: string } = {},
): Promise<boolean> {
  const res = await db.run.updateMany({
    where: ownerId === undefined ? { id } : { id, workerId: ownerId },
    data: {
      status,
      finishedAt: WAITING.includes(status) ? null : new Date(),
      ...extra,
    },
  });
  return res.count === 1;
}

/** Asks the owner to stop. A queued run is cancelled at once; a finished one is a conflict. */
export async function requestCancel(id: string, { db = getDb() }: Opts = {}): Promise<RunStatus> {
  const run = await getRun(id, { db });
  if (FINISHED.includes(run.status as RunStatus)) {
    throw new AppError("CONFLICT", `run ${id} is ${run.status}`, { userMessage: `This run is already ${run.status}.` });
  }
  if (run.status === "queued" || WAITING.includes(run.status as RunStatus)) {
    await db.run.update({
      where: { id },
      data: { status: "cancelled", cancelRequested: true, finishedAt: new Date() },
    });
    return "cancelled";
  }
  await db.run.update({ where: { id }, data: { status: "cancelling", cancelRequested: true } });
  return "cancelling";
}

/**
 * What the owner's watch checks every second: a pending cancel, or that the run is no longer its own (a
 * worker-loss detector took it over while this worker was unresponsive, or the row is gone).
 */
export async function watchRun(
  id: string,
  workerId: string,
  { db = getDb() }: Opts = {},
): Promise<"ok" | "cancel" | "lost"> {
  const r = await db.run.findUnique({ where: { id }, select: { cancelRequested: true, workerId: true, status: true } });
  if (!r || r.workerId !== workerId || (r.status !== "running" && r.status !== "cancelling")) return "lost";
  return r.cancelRequested ? "cancel" : "ok";
}

export const RESUMABLE: readonly RunStatus[] = RESUMABLE_STATUSES;
