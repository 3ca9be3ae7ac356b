/**
 * Turns the policy layer's running counters into increments since the last flush, so a worker can add
 * them to the database at each commit without double counting.
 */
import type { BackendStats, Role, UsageCounters } from "../engine/ports";

export interface CounterDelta {
  role: Role;
  stage: string;
  backend: string;
  model: string;
  counters: UsageCounters;
}

const sub = (a: number | null, b: number | null) => (a === null || b === null ? null : a - b);

function minus(now: UsageCounters, before: UsageCounters | undefined): UsageCounters {
  if (!before) return now;
  const errors: Record<string, number> = {};
  for (const [k, n] of Object.entries(now.errors))
    if (n - (before.errors[k] ?? 0) > 0) errors[k] = n - (before.errors[k] ?? 0);
  return {
    calls: now.calls - before.calls,
    promptTokens: now.promptTokens - before.promptTokens,
    completionTokens: now.completionTokens - before.completionTokens,
    latencyMs: now.latencyMs - before.latencyMs,
    errors,
    retries: now.retries - before.retries,
    cacheHits: now.cacheHits - before.cacheHits,
    costUsd: sub(now.costUsd, before.costUsd),
    costSavedUsd: sub(now.costSavedUsd, before.costSavedUsd),
  };
}

const empty = (c: UsageCounters) =>
  c.calls === 0 && c.retries === 0 && c.cacheHits === 0 && Object.keys(c.errors).length === 0;

export class UsageFlusher {
  private last = new Map<string, UsageCounters>();

  constructor(private readonly read: () => Partial<Record<Role, BackendStats>>) {}

  /** Increments since the previous call (rows with nothing new are left out). */
  take(): CounterDelta[] {
    const out: CounterDelta[] = [];
    for (const [role, stats] of Object.entries(this.read()) as Array<[Role, BackendStats]>) {
      for (const [stage, now] of Object.entries(stats.byStage)) {
        const key = `${role}\0${stage}`;
        const d = minus(now, this.last.get(key));
        this.last.set(key, structuredClone(now));
        if (!empty(d)) out.push({ role, stage, backend: stats.backend, model: stats.model, counters: d });
      }
    }
    return out;
  }
}
