/**
 * The HTTP API's setup and overview responses: presets and backends for the New run form, the pre-flight
 * estimate, and the compare view. Client-safe: types only.
 */
import type { BestMeasuredBy } from "./best";
import type { DatasetFingerprint } from "./datasets";
import type { LeakageReport } from "./evidence";
import type { RunConfig } from "./run-config";

export interface PresetInfo {
  path: string; // relative to configs/
  env: string;
  title: string;
  yaml: string;
  config: RunConfig;
  initialSkill: string;
  simulated: boolean;
  /** The backend and model each role resolves to (aliases and `model.backend` applied by the server). */
  roles: Record<"optimizer" | "target", { backend: string; model: string }>;
  error?: string;
}

export interface BackendInfo {
  name: string;
  available: boolean;
  /** The roles it can play (exec backends drive an agent CLI and can only be the target). */
  roles: Array<"optimizer" | "target">;
  /** Why it is unavailable (the missing variable), or a label like "Simulated model — scores are synthetic". */
  note: string;
}

export interface EstimatePhase {
  phase: string;
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

export interface Estimate {
  phases: EstimatePhase[];
  totalCalls: number;
  totalTokens: number;
  /** null when a price is unknown for a model in use (never shown as 0). */
  costUsd: number | null;
  splitSizes: { train: number; val: number; test: number };
  /** Hashes of the data file and of each split (absent when they could not be computed). */
  dataset?: DatasetFingerprint;
  notes: string[];
  /** Simulated target only: items it has no annotations for (it scores them 0); absent when it knows them all. */
  simCoverage?: SimCoverage;
  /** Items shared across splits and seed-skill lines holding evaluation data (absent when not computed). */
  leakage?: LeakageReport;
  /** Set when the selection split is too small to detect a typical step's improvement. */
  splitWarning?: string | null;
}

export interface SimCoverage {
  unannotated: number;
  total: number;
}

export interface CompareResponse {
  runs: Array<{
    id: string;
    name: string;
    status: string;
    simulated: boolean;
    /** The run's read model: the same best score and totals as the run header and the runs list. */
    bestScore: number | null;
    bestOrigin: string | null;
    bestMeasuredBy: BestMeasuredBy | null;
    gateMetric: string;
    calls: number;
    promptTokens: number;
    completionTokens: number;
    costUsd: number | null;
    /** Selection score of the seed skill, and test scores of the seed skill, the best skill and the final skill. */
    baselineScore: number | null;
    testInitial: number | null;
    testBest: number | null;
    testFinal: number | null;
    /** Runs with the same number trained the same config apart from their seeds (`seeds`). */
    configGroup: number;
    /** The run's seed keys (train.seed, env.split_seed, …) and their values. */
    seeds: Record<string, string>;
    curve: Array<{ step: number; candidate: number | null; current: number | null; best: number | null }>;
  }>;
  /** Config keys whose values differ between the runs (dotted keys, values as text). */
  configDiff: Array<{ key: string; values: string[] }>;
}
