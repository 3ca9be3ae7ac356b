/**
 * Comparing runs: per-step selection curves, test scores and totals, the config keys whose values differ,
 * and which runs share a config apart from their seeds (so the page can show mean ± spread over seeds).
 */
import type { CompareResponse } from "../contracts/api";
import type { BestMeasuredBy } from "../contracts/best";
import { AppError } from "../errors";
import { getDb, type DbTx } from "./client";
import { runConfigOf } from "./runs";

function flatten(obj: unknown, prefix = "", out: Record<string, string> = {}): Record<string, string> {
  if (obj && typeof obj === "object" && !Array.isArray(obj)) {
    for (const [k, v] of Object.entries(obj)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out[prefix] = JSON.stringify(obj) ?? "null";
  return out;
}

/** Config keys that only pick a seed: `train.seed`, `env.split_seed`, any `*_seed`. */
export function isSeedKey(key: string): boolean {
  const last = key.split(".").at(-1) ?? key;
  return last === "seed" || last.endsWith("_seed");
}

/** Group numbers (1, 2, …, in the order given) of configs that are equal once seed keys are left out. */
export function configGroupsOf(flats: Array<Record<string, string>>): number[] {
  const ids = new Map<string, number>();
  return flats.map((f) => {
    const key = JSON.stringify(
      Object.entries(f)
        .filter(([k]) => !isSeedKey(k))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    if (!ids.has(key)) ids.set(key, ids.size + 1);
    return ids.get(key)!;
  });
}

export async function compareRuns(ids: string[], { db = getDb() }: { db?: DbTx } = {}): Promise<CompareResponse> {
  const runs = await db.run.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      name: true,
      status: true,
      simulated: true,
      configJson: true,
      baselineScore: true,
      testInitial: true,
      testBest: true,
      testFinal: true,
      bestScore: true,
      bestOrigin: true,
      bestMeasuredBy: true,
      calls: true,
      promptTokens: true,
      completionTokens: true,
      costUsd: true,
    },
  });
  const missing = ids.filter((id) => !runs.some((r) => r.id === id));
  if (missing.length > 0) throw new AppError("NOT_FOUND", `runs not found: ${missing.join(", ")}`, { field: "ids" });
  const steps = await db.step.findMany({
    where: { runId: { in: ids } },
    orderBy: { step: "asc" },
    select: { runId: true, step: true, candidateScore: true, currentScore: true, bestScore: true },
  });
  const ordered = ids.map((id) => runs.find((r) => r.id === id)!);
  const flats = ordered.map((r) => flatten(runConfigOf(r)));
  const keys = [...new Set(flats.flatMap((f) => Object.keys(f)))].sort();
  const groups = configGroupsOf(flats);
  return {
    runs: ordered.map((r, i) => ({
      id: r.id,
      name: r.name,
      status: r.status,
      simulated: r.simulated,
      bestScore: r.bestScore,
      bestOrigin: r.bestOrigin,
      bestMeasuredBy: r.bestMeasuredBy as BestMeasuredBy | null,
      gateMetric: runConfigOf(r).evaluation.gate_metric,
      calls: r.calls,
      promptTokens: r.promptTokens,
      completionTokens: r.completionTokens,
      costUsd: r.costUsd,
      baselineScore: r.baselineScore,
      testInitial: r.testInitial,
      testBest: r.testBest,
      testFinal: r.testFinal,
      configGroup: groups[i]!,
      seeds: Object.fromEntries(Object.entries(flats[i]!).filter(([k]) => isSeedKey(k))),
      curve: [
        { step: 0, candidate: null, current: r.baselineScore, best: r.baselineScore },
        ...steps
          .filter((s) => s.runId === r.id)
          .map((s) => ({ step: s.step, candidate: s.candidateScore, current: s.currentScore, best: s.bestScore })),
      ],
    })),
    configDiff: keys
      .filter((k) => new Set(flats.map((f) => f[k] ?? "—")).size > 1)
      .map((k) => ({ key: k, values: flats.map((f) => f[k] ?? "—") })),
  };
}
