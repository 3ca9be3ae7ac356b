/**
 * The run's totals, summed from the backends' usage counters (one row per role and stage, which every
 * model call passes through). The database read model (Run.calls/promptTokens/completionTokens/costUsd)
 * and so every page use this one sum: slow update, meta skill, final selection check, test evaluations
 * and judge calls are all counted, including those after the last step commit.
 */

export interface UsageTotals {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** null when any row's price is unknown: an unknown cost stays unknown, never 0. */
  costUsd: number | null;
}

export interface UsageLike {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number | null;
}

export function sumUsage(rows: readonly UsageLike[]): UsageTotals {
  const out: UsageTotals = { calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0 };
  for (const r of rows) {
    out.calls += r.calls;
    out.promptTokens += r.promptTokens;
    out.completionTokens += r.completionTokens;
    out.costUsd = out.costUsd === null || r.costUsd === null ? null : out.costUsd + r.costUsd;
  }
  return out;
}

/** Calls and tokens per stage over both roles, largest first by tokens (the "Tokens by stage" table). */
export function usageByStage(
  rows: ReadonlyArray<UsageLike & { stage: string }>,
): Array<{ stage: string } & Omit<UsageTotals, "costUsd">> {
  const by = new Map<string, { stage: string; calls: number; promptTokens: number; completionTokens: number }>();
  for (const r of rows) {
    const s = by.get(r.stage) ?? { stage: r.stage, calls: 0, promptTokens: 0, completionTokens: 0 };
    s.calls += r.calls;
    s.promptTokens += r.promptTokens;
    s.completionTokens += r.completionTokens;
    by.set(r.stage, s);
  }
  return [...by.values()].sort((a, b) => a.stage.localeCompare(b.stage));
}
