/**
 * A simulated run trained in-process and persisted as the worker persists it: the run row, the engine's
 * events through persistEngineEvent and its checkpoints in the database store. `onEvent` sees every
 * event after it is stored. Used by rows-per-step and slow-update-rows.
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
  const { config, resolvedYaml } = loadRunConfig(input.preset, input.overrides);
  const run = prepareRun({ config, rootDir: process.cwd(), trust: "local" });
  const id = randomUUID();
  await createRun(
    {
      id,
      name: input.name,
      config,
      sourceYaml: resolvedYaml,
      seedSkill: run.initialSkill,
      optimizerBackend: "sim",
      targetBackend: "sim",
      simulated: true,
      stepsTotal: input.stepsTotal,
    },
    { db },
  );
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
