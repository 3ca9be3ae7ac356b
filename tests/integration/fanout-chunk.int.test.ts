/**
 * A rollout chunk job (`worker.fan_out`) on a real database, with a counting environment: items already
 * stored are never run again, a chunk run twice at once stores each item once, and the parent's runner
 * returns the stored rows in item order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunConfigSchema } from "../../lib/contracts/run-config";
import type { Db } from "../../lib/db/client";
import { createFanOutResult } from "../../lib/db/fanout-results";
import { createRun } from "../../lib/db/runs";
import { DbCheckpointStore } from "../../lib/db/checkpoint-store";
import type { Environment, Item, ModelClient, Trajectory } from "../../lib/engine";
import { fanOutSpecOf } from "../../lib/queue/fanout";
import { handleRolloutChunk, type ChunkContext } from "../../worker/fanout/chunk";
import { specKey, type FanOutSpec } from "../../worker/fanout/runner";
import { PROVIDERS, freshDb, useAsDefaultDb } from "../helpers/db";

let db: Db;

const items: Item[] = Array.from({ length: 4 }, (_, i) => ({ id: `q${i}`, question: `question ${i}` }));
const row = (id: string, by: string): Trajectory => ({
  id,
  hard: 1,
  soft: 1,
  status: "ok",
  prediction: by,
  conversation: [],
});

/** An environment that counts its rollouts per item (slowly, so two chunk runs overlap). */
function countingEnv(ran: string[]): Environment {
  return {
    name: "count",
    taskTypes: () => [],
    failureTaxonomy: () => [],
    async rollout({ item }) {
      ran.push(item.id);
      await new Promise((r) => setTimeout(r, 30));
      return row(item.id, "chunk");
    },
  };
}

async function setup(name: string): Promise<{ runId: string; dir: string; spec: string }> {
  const config = RunConfigSchema.parse({
    model: { backend: "sim" },
    env: { name: "searchqa", split_mode: "sample" },
    worker: { fan_out: true, exec_slots: 2, fan_out_chunk: 4 },
  });
  const runId = crypto.randomUUID();
  await createRun({
    id: runId,
    name,
    config,
    sourceYaml: "",
    seedSkill: "# Skill\n",
    optimizerBackend: "sim",
    targetBackend: "sim",
    simulated: true,
    stepsTotal: 1,
  });
  const dir = "steps/step_0001/rollout";
  const spec = fanOutSpecOf(items.map((it) => it.id));
  const value: FanOutSpec = { items, skill: "# Skill\n", phase: "train", seed: 1, useEvalFeedback: false };
  const store = new DbCheckpointStore(runId);
  await store.putJson(specKey(dir, spec), value);
  await store.flush();
  return { runId, dir, spec };
}

function context(ran: string[]): ChunkContext {
  const target: ModelClient = {
    backend: "none",
    model: "none",
    complete: () => Promise.reject(new Error("not called")),
  };
  return {
    workerId: "w1",
    rootDir: process.cwd(),
    log: { info: () => {}, warn: () => {} },
    shutdown: new AbortController().signal,
    prepare: () => ({ env: countingEnv(ran), target }),
  };
}

describe.each(PROVIDERS)("rollout chunk jobs on %s", (provider) => {
  beforeAll(async () => {
    ({ db } = await freshDb(provider));
    useAsDefaultDb(db);
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it("run only the items not stored yet, and nothing once all are stored", async () => {
    const { runId, dir, spec } = await setup("skip stored");
    await createFanOutResult({ runId, key: dir, row: row("q1", "earlier"), workerId: "w0" });
    const ran: string[] = [];
    expect(await handleRolloutChunk({ runId, dir, spec, chunk: 0 }, context(ran))).toBe(3);
    expect(ran.sort()).toEqual(["q0", "q2", "q3"]);
    expect(await handleRolloutChunk({ runId, dir, spec, chunk: 0 }, context(ran))).toBe(0);
    expect(ran).toHaveLength(3);
    const stored = await db.fanOutResult.findMany({ where: { runId }, orderBy: { itemId: "asc" } });
    expect(stored.map((r) => [r.itemId, JSON.parse(r.value).prediction])).toEqual([
      ["q0", "chunk"],
      ["q1", "earlier"],
      ["q2", "chunk"],
      ["q3", "chunk"],
    ]);
  });

  it("the same chunk run twice at once (a redelivered job) stores each item once", async () => {
    const { runId, dir, spec } = await setup("twice at once");
    const ran: string[] = [];
    await Promise.all([
      handleRolloutChunk({ runId, dir, spec, chunk: 0 }, context(ran)),
      handleRolloutChunk({ runId, dir, spec, chunk: 0 }, context(ran)),
    ]);
    expect(await db.fanOutResult.count({ where: { runId } })).toBe(4);
  });

  it("refuses a chunk whose spec is missing, naming the folder", async () => {
    const { runId, dir } = await setup("no spec");
    await expect(handleRolloutChunk({ runId, dir, spec: "0123456789abcdef", chunk: 0 }, context([]))).rejects.toThrow(
      /steps\/step_0001\/rollout: no batch spec/,
    );
  });
});
