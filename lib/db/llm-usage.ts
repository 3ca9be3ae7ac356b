/**
 * Backend usage per run, role and stage (latency, errors by kind, retries, cache hits, cost). Workers
 * add increments, so a resumed run's totals include every session. These rows are the source of the
 * run's totals (Run.calls, promptTokens, completionTokens, costUsd): every write recomputes them.
 *
 * Several processes write one run's rows at once: the run's worker flushes its own calls while the
 * workers running its fan-out chunks add theirs (`worker.fan_out`). Every write is one transaction that
 * first takes the run's lock — the Run row locked `FOR UPDATE` on PostgreSQL, the database's single write
 * lock on SQLite (our transactions begin IMMEDIATE) — so the read-modify-write of a row (errors by kind
 * are one JSON map) and the recomputed totals never interleave with another writer's.
 */
import { sumUsage } from "../contracts/usage-totals";
import type { UsageCounters } from "../engine/ports";
import { getDb, providerOfDb, type Db, type DbProvider, type DbTx } from "./client";

export interface UsageDelta {
  role: string;
  stage: string;
  backend: string;
  model: string;
  counters: UsageCounters;
}

/**
 * Every usage write of a run waits for the run's lock, and on PostgreSQL for a pooled connection first:
 * many items stored at once (one fan-out chunk runs up to `worker.exec_slots`) queue longer than Prisma's
 * default 2 s wait to start a transaction. Each write itself is a few short statements.
 */
export const USAGE_TX_OPTIONS = { maxWait: 60_000, timeout: 60_000 };

const addCost = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

/** Adds increments and recomputes the run's totals, in one transaction holding the run's lock. */
export async function addLlmUsage(runId: string, deltas: UsageDelta[], db: Db = getDb()): Promise<void> {
  if (deltas.length === 0) return;
  const provider = providerOfDb(db);
  await db.$transaction((tx) => addLlmUsageIn(tx, provider, runId, deltas), USAGE_TX_OPTIONS);
}

/**
 * Locks the run's usage against other writers until `tx` ends (SQLite's write lock is held already). It
 * must be the transaction's first statement: an insert of a row that references the run takes a share
 * lock on the Run row, and two transactions holding that and both wanting this one deadlock. `NO KEY
 * UPDATE` (what an update of the row's other columns takes anyway) leaves such inserts elsewhere free.
 */
export async function lockRunUsage(tx: DbTx, provider: DbProvider, runId: string): Promise<void> {
  if (provider === "postgresql") await tx.$queryRaw`SELECT "id" FROM "Run" WHERE "id" = ${runId} FOR NO KEY UPDATE`;
}

/**
 * `addLlmUsage` inside the caller's transaction, so increments can be stored with what they paid for (a
 * fan-out item's row: its calls count exactly when the row is stored). `tx` must be a transaction that
 * took `lockRunUsage` first, or wrote nothing referencing the run yet.
 */
export async function addLlmUsageIn(
  tx: DbTx,
  provider: DbProvider,
  runId: string,
  deltas: UsageDelta[],
): Promise<void> {
  if (deltas.length === 0) return;
  await lockRunUsage(tx, provider, runId);
  for (const d of deltas) {
    const where = { runId_role_stage: { runId, role: d.role, stage: d.stage } };
    const prev = await tx.llmUsage.findUnique({ where });
    const c = d.counters;
    const errors: Record<string, number> = prev ? (JSON.parse(prev.errorsJson) as Record<string, number>) : {};
    for (const [k, n] of Object.entries(c.errors)) errors[k] = (errors[k] ?? 0) + n;
    const data = {
      backend: d.backend,
      model: d.model,
      calls: (prev?.calls ?? 0) + c.calls,
      promptTokens: (prev?.promptTokens ?? 0) + c.promptTokens,
      completionTokens: (prev?.completionTokens ?? 0) + c.completionTokens,
      latencyMs: (prev?.latencyMs ?? 0) + Math.round(c.latencyMs),
      errorsJson: JSON.stringify(errors),
      retries: (prev?.retries ?? 0) + c.retries,
      cacheHits: (prev?.cacheHits ?? 0) + c.cacheHits,
      costUsd: prev ? addCost(prev.costUsd, c.costUsd) : c.costUsd,
      costSavedUsd: prev ? addCost(prev.costSavedUsd, c.costSavedUsd) : c.costSavedUsd,
    };
    if (prev) await tx.llmUsage.update({ where, data });
    else await tx.llmUsage.create({ data: { runId, role: d.role, stage: d.stage, ...data } });
  }
  await totalsFromRows(tx, runId);
}

/**
 * Writes the run's totals from its usage rows. A recomputation, not an increment: running it again (a
 * replay, a crash between the two writes) gives the same numbers. Under the run's lock, so a concurrent
 * writer's increments are either all in the sum or followed by that writer's own recomputation.
 */
export async function syncRunTotals(runId: string, db: Db = getDb()): Promise<void> {
  const provider = providerOfDb(db);
  await db.$transaction(async (tx) => {
    await lockRunUsage(tx, provider, runId);
    await totalsFromRows(tx, runId);
  }, USAGE_TX_OPTIONS);
}

async function totalsFromRows(tx: DbTx, runId: string): Promise<void> {
  const rows = await tx.llmUsage.findMany({
    where: { runId },
    select: { calls: true, promptTokens: true, completionTokens: true, costUsd: true },
  });
  const t = sumUsage(rows);
  await tx.run.update({
    where: { id: runId },
    data: {
      calls: t.calls,
      promptTokens: t.promptTokens,
      completionTokens: t.completionTokens,
      costUsd: rows.length === 0 ? null : t.costUsd,
    },
  });
}
