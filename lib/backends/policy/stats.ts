/**
 * Usage counters per role and stage: calls, billed tokens, latency, errors by kind, retries, cache hits,
 * cost and cost saved. One ledger per run; each role's client reports its slice through `stats()`.
 * Cost is null whenever the model's price is unknown — an unknown price is never shown as $0.
 */
import type { BackendStats, Role, UsageCounters } from "../../engine/ports";

export function emptyCounters(priceKnown: boolean): UsageCounters {
  const zero = priceKnown ? 0 : null;
  return {
    calls: 0,
    promptTokens: 0,
    completionTokens: 0,
    latencyMs: 0,
    errors: {},
    retries: 0,
    cacheHits: 0,
    costUsd: zero,
    costSavedUsd: zero,
  };
}

/** One event's contribution; omitted fields add nothing. */
export interface UsageDelta {
  calls?: number;
  promptTokens?: number;
  completionTokens?: number;
  latencyMs?: number;
  errorKind?: string;
  retries?: number;
  cacheHits?: number;
  costUsd?: number | null;
  costSavedUsd?: number | null;
}

const addCost = (a: number | null, b: number | null | undefined) => (a === null || b === null ? null : a + (b ?? 0));

function add(c: UsageCounters, d: UsageDelta): void {
  c.calls += d.calls ?? 0;
  c.promptTokens += d.promptTokens ?? 0;
  c.completionTokens += d.completionTokens ?? 0;
  c.latencyMs += d.latencyMs ?? 0;
  c.retries += d.retries ?? 0;
  c.cacheHits += d.cacheHits ?? 0;
  if (d.errorKind) c.errors[d.errorKind] = (c.errors[d.errorKind] ?? 0) + 1;
  c.costUsd = addCost(c.costUsd, d.costUsd);
  c.costSavedUsd = addCost(c.costSavedUsd, d.costSavedUsd);
}

function copy(c: UsageCounters): UsageCounters {
  return { ...c, errors: { ...c.errors } };
}

interface RoleBook {
  backend: string;
  model: string;
  priceKnown: boolean;
  stages: Map<string, UsageCounters>;
}

/** One recorded event, with the role's backend and model (what a listener needs to keep its own ledger). */
export interface UsageRecord {
  role: Role;
  stage: string;
  backend: string;
  model: string;
  priceKnown: boolean;
  delta: UsageDelta;
}

export class UsageLedger {
  private readonly roles = new Map<Role, RoleBook>();
  private readonly listeners = new Set<(r: UsageRecord) => void>();

  /**
   * Calls `listener` with every later record (a fan-out chunk uses it to count each item's calls apart);
   * returns the function that stops it.
   */
  onRecord(listener: (r: UsageRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Declares which backend and model a role uses (before its first call). */
  register(role: Role, backend: string, model: string, priceKnown: boolean): void {
    this.roles.set(role, { backend, model, priceKnown, stages: new Map() });
  }

  record(role: Role, stage: string, delta: UsageDelta): void {
    const book = this.roles.get(role);
    if (!book) throw new Error(`usage ledger: role ${role} was not registered`);
    const row = book.stages.get(stage) ?? emptyCounters(book.priceKnown);
    add(row, delta);
    book.stages.set(stage, row);
    for (const l of this.listeners)
      l({ role, stage, backend: book.backend, model: book.model, priceKnown: book.priceKnown, delta });
  }

  /** The role's counters per stage (sorted) and in total, or null when the role has no client. */
  statsOf(role: Role): BackendStats | null {
    const book = this.roles.get(role);
    if (!book) return null;
    const total = emptyCounters(book.priceKnown);
    const byStage: Record<string, UsageCounters> = {};
    for (const [stage, row] of [...book.stages.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      byStage[stage] = copy(row);
      add(total, { ...row, errorKind: undefined });
      for (const [k, n] of Object.entries(row.errors)) total.errors[k] = (total.errors[k] ?? 0) + n;
    }
    return { backend: book.backend, model: book.model, byStage, total };
  }

  /** Both roles' stats. */
  snapshot(): Partial<Record<Role, BackendStats>> {
    const out: Partial<Record<Role, BackendStats>> = {};
    for (const role of this.roles.keys()) out[role] = this.statsOf(role)!;
    return out;
  }
}
