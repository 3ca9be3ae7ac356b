/**
 * Database rows written per training step stay bounded: a simulated SearchQA run persisted as the worker
 * persists it (engine events + the database checkpoint store) writes, per step, a number of rows that
 * depends on the batch and the selection split, never on how many steps ran before. The README's
 * "Rows per step" table comes from this measurement.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRunConfig } from "../../lib/config";
import type { Db } from "../../lib/db/client";
import { DbCheckpointStore } from "../../lib/db/checkpoint-store";
import { persistEngineEvent } from "../../lib/db/engine-events";
import { createRun } from "../../lib/db/runs";
import { runTraining, skillHash } from "../../lib/engine";
import { prepareRun } from "../../lib/runs/prepare";
import { freshDb } from "../helpers/db";

const PRESET = "configs/searchqa/sample.yaml";
const TABLES = [
  "runEvent",
  "step",
  "skillVersion",
  "edit",
  "evalResult",
  "checkpoint",
  "checkpointRow",
  "llmUsage",
] as const;
type Table = (typeof TABLES)[number];
type Counts = Record<Table, number>;

async function countRows(db: Db, runId: string): Promise<Counts> {
  const out = {} as Counts;
  for (const t of TABLES) {
    const model = db[t] as unknown as { count(a: { where: { runId: string } }): Promise<number> };
    out[t] = await model.count({ where: { runId } });
  }
  return out;
}

describe("database rows per step (sqlite, simulated run)", () => {
  let db: Db;
  beforeAll(async () => {
    db = (await freshDb("sqlite")).db;
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it("writes a bounded number of rows per step, not growing with the step", async () => {
    const overrides = ["train.num_epochs=3"];
    const { config, resolvedYaml } = loadRunConfig(PRESET, overrides);
    const run = prepareRun({ config, rootDir: process.cwd(), trust: "local" });
    const id = randomUUID();
    await createRun(
      {
        id,
        name: "rows-per-step",
        config,
        sourceYaml: resolvedYaml,
        seedSkill: run.initialSkill,
        optimizerBackend: "sim",
        targetBackend: "sim",
        simulated: true,
        stepsTotal: 9,
      },
      { db },
    );
    const perStep: Array<{ step: number; delta: Counts }> = [];
    let last = await countRows(db, id);
    await runTraining({
      config,
      splits: run.splits,
      initialSkill: run.initialSkill,
      env: run.env,
      optimizer: run.optimizer,
      target: run.target,
      store: new DbCheckpointStore(id, db),
      events: {
        emit: async (e) => {
          await persistEngineEvent(id, e, skillHash, db);
          if (e.type !== "stepCommitted") return;
          const now = await countRows(db, id);
          perStep.push({ step: e.step, delta: Object.fromEntries(TABLES.map((t) => [t, now[t] - last[t]])) as Counts });
          last = now;
        },
      },
      clock: { now: () => Date.now() },
    });
    const batch = config.train.batch_size * config.train.accumulation;
    const selection = run.splits.val.length;
    const pairs = 2 * config.optimizer.slow_update_samples;
    const total = (c: Counts) => TABLES.reduce((s, t) => s + c[t], 0);
    const summary = perStep.map((p) => ({ atStep: p.step, total: total(p.delta), ...p.delta }));
    console.log(`rows per step (batch ${batch}, selection ${selection}, pair rollouts ${pairs}):`);
    console.table(summary);
    expect(perStep.length).toBe(9);
    // Rollout rows (checkpoint rows) and per-item results scale with the items a step touches, nothing else.
    const items = batch + selection + pairs;
    for (const p of perStep) {
      expect(p.delta.checkpointRow).toBeLessThanOrEqual(items);
      expect(p.delta.evalResult).toBeLessThanOrEqual(batch + 2 * selection); // the baseline is scored at step 1
      expect(p.delta.step).toBe(1);
      expect(total(p.delta)).toBeLessThanOrEqual(3 * items + 100);
    }
    // Not growing with the step: the last epoch's steps write no more than the first epoch's most.
    const firstEpochMax = Math.max(...summary.slice(0, 3).map((s) => s.total));
    const steadyMax = Math.max(...summary.slice(6).map((s) => s.total));
    expect(steadyMax).toBeLessThanOrEqual(firstEpochMax + pairs + 20);
  }, 180_000);
});
