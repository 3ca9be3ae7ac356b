/**
 * Backend usage per run, role and stage (latency, errors by kind, retries, cache hits, cost). Workers
 * add increments, so a resumed run's totals include every session. These rows are the source of the
 * run's totals (Run.calls, promptTokens, completionTokens, costUsd): every write recomputes them.
 */
import { sumUsage } from "../contracts/usage-totals";
import type { UsageCounters } from "../engine/ports";
import { getDb, type Db } from "./client";

export interface UsageDelta {
  role: string;
  stage: string;
  backend: string;
  model: string;
  counters: UsageCounters;
}

const addCost = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

/**
 * Adds increments. No transaction: one worker owns a run and flushes sequentially, and an interactive
 * transaction would hold SQLite's single writer lock across these reads.
 */
export async function addLlmUsage(runId: string, deltas: UsageDelta[], db: Db = getDb()): Promise<void> {
  if (deltas.length === 0) return;
  for (const d of deltas) {
    const where = { runId_role_stage: { runId, role: d.role, stage: d.stage } };
    const prev = await db.llmUsage.findUnique({ where });
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
    await db.llmUsage.upsert({ where, create: { runId, role: d.role, stage: d.stage, ...data }, update: data });
  }
  await syncRunTotals(runId, db);
}

/**
 * Writes the run's totals from its usage rows. A recomputation, not an increment: running it again (a
 * replay, a crash between the two writes) gives the same numbers.
 */
export async function syncRunTotals(runId: string, db: Db = getDb()): Promise<void> {
  const rows = await db.llmUsage.findMany({
    where: { runId },
    select: { calls: true, promptTokens: true, completionTokens: true, costUsd: true },
  });
  const t = sumUsage(rows);
  await db.run.update({
    where: { id: runId },
    data: {
      calls: t.calls,
      promptTokens: t.promptTokens,
      completionTokens: t.completionTokens,
      costUsd: rows.length === 0 ? null : t.costUsd,
    },
  });
}
