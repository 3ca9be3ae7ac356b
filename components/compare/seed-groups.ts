/**
 * Runs of one config trained with different seeds, summarised as mean ± spread (sample standard
 * deviation) per measure. A run without a value for a measure (no test yet, unknown cost) is left out of
 * that measure only, and `n` says how many runs each figure stands on.
 */
import type { CompareResponse } from "@/lib/contracts/api";
import { testGainOf } from "@/lib/contracts/run-list";

type CompareRun = CompareResponse["runs"][number];

export interface Spread {
  n: number;
  mean: number | null;
  /** Sample standard deviation (n − 1); null with fewer than two values. */
  sd: number | null;
  min: number | null;
  max: number | null;
}

export function spreadOf(values: Array<number | null>): Spread {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (xs.length === 0) return { n: 0, mean: null, sd: null, min: null, max: null };
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length < 2 ? null : Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  return { n: xs.length, mean, sd, min: Math.min(...xs), max: Math.max(...xs) };
}

export const SEED_MEASURES = [
  { key: "bestScore", label: "Best selection", of: (r: CompareRun) => r.bestScore, kind: "score" },
  { key: "testBest", label: "Best test", of: (r: CompareRun) => r.testBest, kind: "score" },
  { key: "testGain", label: "Test gain", of: (r: CompareRun) => testGainOf(r), kind: "delta" },
  { key: "tokens", label: "Tokens", of: (r: CompareRun) => r.promptTokens + r.completionTokens, kind: "count" },
  { key: "cost", label: "Cost", of: (r: CompareRun) => r.costUsd, kind: "cost" },
] as const;

export interface SeedGroup {
  group: number;
  runs: CompareRun[];
  /** The seed values that vary inside the group, e.g. ["train.seed 1, 2, 3"]. */
  seedSummary: string[];
  stats: Record<(typeof SEED_MEASURES)[number]["key"], Spread>;
}

/** Groups with two or more runs (several seeds of one config); single runs are not groups. */
export function seedGroupsOf(runs: CompareRun[]): SeedGroup[] {
  const byGroup = new Map<number, CompareRun[]>();
  for (const r of runs) byGroup.set(r.configGroup, [...(byGroup.get(r.configGroup) ?? []), r]);
  return [...byGroup.entries()]
    .filter(([, rs]) => rs.length >= 2)
    .map(([group, rs]) => ({
      group,
      runs: rs,
      seedSummary: seedSummaryOf(rs),
      stats: Object.fromEntries(SEED_MEASURES.map((m) => [m.key, spreadOf(rs.map(m.of))])) as SeedGroup["stats"],
    }));
}

function seedSummaryOf(runs: CompareRun[]): string[] {
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.seeds)))].sort();
  return keys
    .map((k) => ({ k, values: [...new Set(runs.map((r) => r.seeds[k] ?? "—"))] }))
    .filter(({ values }) => values.length > 1)
    .map(({ k, values }) => `${k} ${values.join(", ")}`);
}
