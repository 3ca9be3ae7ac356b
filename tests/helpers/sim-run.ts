/**
 * A simulated run trained in-process and persisted as the worker persists it: the run row, the engine's
 * events through persistEngineEvent and its checkpoints in the database store. `onEvent` sees every
 * event after it is stored. Used by rows-per-step and slow-update-rows. Also the run row alone
 * (`createSimRunRow`), for tests that train it their own way. Not for e2e specs: the presets load the
 * benchmarks' sample data, which Playwright's loader cannot import.
 */
import { randomUUID } from "node:crypto";
import { loadRunConfig } from "../../lib/config";
import type { EngineEvent } from "../../lib/contracts/events";
import type { Db } from "../../lib/db/client";
import { DbCheckpointStore, isCommitEvent } from "../../lib/db/checkpoint-store";
import { persistEngineEvent } from "../../lib/db/engine-events";
import { createRun } from "../../lib/db/runs";
import { runTraining, skillHash } from "../../lib/engine";
import { prepareRun } from "../../lib/runs/prepare";

export interface SimRunInput {
  preset: string;
  overrides: string[];
  name: string;
  stepsTotal: number;
  /** Called with the run's id once its row exists, before training starts. */
  onCreated?: (id: string) => Promise<void>;
  onEvent?: (e: EngineEvent, id: string) => void | Promise<void>;
}

export async function trainSimulatedRun(db: Db, input: SimRunInput) {
  const {
    id,
    config,
    prepared: run,
  } = await createSimRunRow(db, {
    file: input.preset,
    overrides: input.overrides,
    name: input.name,
    stepsTotal: input.stepsTotal,
  });
  await input.onCreated?.(id);
  const store = new DbCheckpointStore(id, db);
  await runTraining({
    config,
    splits: run.splits,
    initialSkill: run.initialSkill,
    env: run.env,
    optimizer: run.optimizer,
    target: run.target,
    store,
    events: {
      emit: async (e) => {
        // As the worker's sink: the checkpoint writes a commit point depends on land before it is stored.
        if (isCommitEvent(e.type)) await store.flush();
        await persistEngineEvent(id, e, skillHash, db);
        await input.onEvent?.(e, id);
      },
    },
    clock: { now: () => Date.now() },
  });
  return { id, config, run };
}

/**
 * A run row as the dashboard creates it for a preset on the simulated model (its config loaded and prepared
 * the way the API does), for tests that then train it; returns the id, config and prepared run.
 */
export async function createSimRunRow(
  db: Db,
  opts: { file?: string; overrides?: string[]; name?: string; stepsTotal?: number } = {},
) {
  const { file = "configs/searchqa/sample.yaml", overrides = [], name = "t", stepsTotal = 6 } = opts;
  const { config, resolvedYaml } = loadRunConfig(file, overrides);
  const prepared = prepareRun({ config, rootDir: process.cwd(), trust: "local" });
  const id = randomUUID();
  await createRun(
    {
      id,
      name,
      config,
      sourceYaml: resolvedYaml,
      seedSkill: prepared.initialSkill,
      optimizerBackend: "sim",
      targetBackend: "sim",
      simulated: true,
      stepsTotal,
    },
    { db },
  );
  return { id, config, prepared };
}
