/**
 * Database rows written per training step stay bounded: a simulated SearchQA run persisted as the worker
 * persists it (engine events + the database checkpoint store) writes, per step, a number of rows that
 * depends on the batch and the selection split, never on how many steps ran before. The README's
 * "Rows per step" table comes from this measurement.
 */
import { describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client";
import { trainSimulatedRun } from "../helpers/sim-run";
import { useStack } from "../helpers/stack";

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
  const stack = useStack();

  it("writes a bounded number of rows per step, not growing with the step", async () => {
    const db = stack.db;
    const perStep: Array<{ step: number; delta: Counts }> = [];
    let last = {} as Counts;
    const { config, run } = await trainSimulatedRun(db, {
      preset: PRESET,
      overrides: ["train.num_epochs=3"],
      name: "rows-per-step",
      stepsTotal: 9,
      onCreated: async (id) => {
        last = await countRows(db, id);
      },
      onEvent: async (e, id) => {
        if (e.type !== "stepCommitted") return;
        const now = await countRows(db, id);
        perStep.push({ step: e.step, delta: Object.fromEntries(TABLES.map((t) => [t, now[t] - last[t]])) as Counts });
        last = now;
      },
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
