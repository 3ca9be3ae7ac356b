/**
 * Runs a preset fully in memory on the simulated model, for tests that prove a benchmark's sample preset
 * trains (every benchmark's `sim-run.test.ts`) and for golden-run checks. No database, no queue, no files
 * beyond what the benchmark itself reads.
 */
import { loadRunConfig } from "../config";
import type { EngineEvent } from "../contracts/events";
import { MemoryCheckpointStore, runTraining } from "../engine";
import { prepareRun, type PreparedRun } from "./prepare";
import { ARTIFACT } from "../contracts/artifacts";

export interface SimRunResult {
  run: PreparedRun;
  summary: Record<string, unknown>;
  history: Array<Record<string, unknown>>;
  best: string;
  events: EngineEvent[];
  store: MemoryCheckpointStore;
}

/** Loads `configPath` with `overrides`, prepares it against the working directory and trains to the end. */
export async function simRunPreset(configPath: string, overrides: string[] = []): Promise<SimRunResult> {
  const { config } = loadRunConfig(configPath, overrides);
  const run = prepareRun({ config, rootDir: process.cwd(), trust: "local" });
  const store = new MemoryCheckpointStore();
  const events: EngineEvent[] = [];
  let t = 0;
  const summary = await runTraining({
    config,
    splits: run.splits,
    initialSkill: run.initialSkill,
    env: run.env,
    optimizer: run.optimizer,
    target: run.target,
    store,
    events: { emit: (e) => void events.push(e) },
    clock: { now: () => (t += 1) },
  });
  const history = (await store.getJson<Array<Record<string, unknown>>>("history.json")) ?? [];
  const best = (await store.getText(ARTIFACT.bestSkill)) ?? "";
  return { run, summary: summary as Record<string, unknown>, history, best, events, store };
}
