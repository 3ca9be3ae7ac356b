/**
 * Fan-out of a run's rollouts across worker processes (`worker.fan_out`), with real processes on a private
 * Redis and a private SQLite file: the same sample run in one process and fanned out over two workers takes
 * the same gate decisions and ends with the same best skill; a worker SIGKILLed mid-flow loses no stored
 * item and stores none twice, and the run still ends with the in-process best skill.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { resetEnvCache } from "../../lib/config/env";
import type { Db } from "../../lib/db/client";
import { findRun } from "../../lib/db/runs";
import { closeFanOutQueue } from "../../lib/queue/fanout";
import { closeQueue } from "../../lib/queue/producer";
import { createRunFromRequest } from "../../lib/runs/create";
import { freshDb, useAsDefaultDb } from "../helpers/db";
import {
  startRedisServer,
  startWorkerProcess,
  stopWorkers,
  until,
  type RedisServer,
  type WorkerProcess,
} from "../helpers/processes";

const SAMPLE = "searchqa/sample.yaml";
const SMALL = { "train.num_epochs": 1 };
let redis: RedisServer;
let db: Db;
let dbUrl: string;
const savedRedisUrl = process.env.REDIS_URL;

beforeAll(async () => {
  redis = await startRedisServer();
  process.env.REDIS_URL = redis.url;
  resetEnvCache();
  await closeQueue();
  ({ db, url: dbUrl } = await freshDb("sqlite"));
  useAsDefaultDb(db);
});
afterEach(stopWorkers);
afterAll(async () => {
  await stopWorkers();
  await closeQueue();
  await closeFanOutQueue();
  await redis.kill();
  await db.$disconnect();
  process.env.REDIS_URL = savedRedisUrl;
  resetEnvCache();
});

function worker(id: string): WorkerProcess {
  const w = startWorkerProcess(id, { DATABASE_URL: dbUrl, REDIS_URL: redis.url, WORKER_CONCURRENCY: "1" });
  onTestFailed(() => console.log(`--- worker ${id} ---\n${w.log()}`));
  return w;
}

async function newRun(overrides: Record<string, number | string | boolean>, name: string): Promise<string> {
  return (await createRunFromRequest({ preset: SAMPLE, overrides: { ...SMALL, ...overrides }, name }, process.cwd()))
    .id;
}

const waitStatus = (id: string, status: string, ms = 150_000) =>
  until(
    () => findRun(id),
    (r) => r?.status === status || r?.status === "failed",
    ms,
    `run ${id} to be ${status}`,
  ).then((r) => expect(r?.status, r?.errorMessage ?? "").toBe(status));

const bestSkill = async (runId: string) =>
  (await db.checkpoint.findUnique({ where: { runId_key: { runId, key: "best_skill.md" } } }))?.value;

/** The gate decisions in order: step, action and the scores the gate compared. */
async function gates(runId: string): Promise<unknown[]> {
  const rows = await db.runEvent.findMany({ where: { runId, type: "gateDecided" }, orderBy: { seq: "asc" } });
  return rows.map((r) => {
    const p = JSON.parse(r.payload) as Record<string, unknown>;
    return [p.step, p.action, p.candidateScore, p.currentScore, p.bestScore];
  });
}

/** Calls and tokens per role and stage (the simulated model is deterministic; wall times differ). */
const usage = async (runId: string) =>
  db.llmUsage.findMany({
    where: { runId },
    orderBy: [{ role: "asc" }, { stage: "asc" }],
    select: { role: true, stage: true, calls: true, promptTokens: true, completionTokens: true },
  });

/** Every fanned-out folder: the stored results hold each item exactly once, and exactly the items run. */
async function expectEachItemStoredOnce(runId: string): Promise<number> {
  const fanned = await db.fanOutResult.findMany({ where: { runId }, select: { key: true, itemId: true } });
  expect(fanned.length).toBeGreaterThan(0);
  const byDir = new Map<string, string[]>();
  for (const r of fanned) byDir.set(r.key, [...(byDir.get(r.key) ?? []), r.itemId]);
  for (const [dir, ids] of byDir) {
    const rows = await db.checkpointRow.findMany({ where: { runId, key: `${dir}/results.jsonl` } });
    const stored = rows.map((r) => (JSON.parse(r.value) as { id: string }).id);
    expect(new Set(stored).size, `${dir}: an item stored twice`).toBe(stored.length);
    expect([...stored].sort(), dir).toEqual([...ids].sort());
  }
  return fanned.length;
}

describe("fan-out across worker processes (SQLite, real workers)", () => {
  let inProcess: { gates: unknown[]; best: string | undefined; usage: unknown[] };

  it("the same run in one process and fanned out over two workers: same gate decisions, same best skill", async () => {
    const [a, b] = [worker("fan-a"), worker("fan-b")];
    await Promise.all([a.ready, b.ready]);
    const here = await newRun({}, "in one process");
    await waitStatus(here, "succeeded");
    inProcess = { gates: await gates(here), best: await bestSkill(here), usage: await usage(here) };
    expect(inProcess.gates.length).toBeGreaterThan(0);
    expect(await db.fanOutResult.count({ where: { runId: here } })).toBe(0);

    const fanned = await newRun({ "worker.fan_out": true, "worker.exec_slots": 2 }, "fanned out");
    await waitStatus(fanned, "succeeded");
    expect(await gates(fanned)).toEqual(inProcess.gates);
    expect(await bestSkill(fanned)).toBe(inProcess.best);
    await expectEachItemStoredOnce(fanned);
    const workers = await db.fanOutResult.findMany({ where: { runId: fanned }, distinct: ["workerId"] });
    expect(workers.map((w) => w.workerId).sort()).toEqual(["fan-a", "fan-b"]);
  }, 300_000);

  it.each([
    ["a worker running chunks", false],
    ["the worker that owns the run", true],
  ])(
    "SIGKILL of %s mid-flow: no stored item lost or stored twice, and the in-process best skill",
    async (_, owner) => {
      expect(inProcess).toBeDefined();
      const tag = owner ? "own" : "kill";
      const [a, b] = [worker(`${tag}-a`), worker(`${tag}-b`)];
      await Promise.all([a.ready, b.ready]);
      // Slow calls so the kill lands while chunks are in flight on both workers.
      const id = await newRun(
        { "worker.fan_out": true, "worker.exec_slots": 2, "model.sim_latency_ms": 100 },
        "fanned out, one worker killed",
      );
      await until(
        () => db.fanOutResult.groupBy({ by: ["workerId"], where: { runId: id }, _count: true }),
        (g) => g.length === 2 && g.every((r) => r._count >= 2),
        120_000,
        "both workers to store results",
      );
      const ownsRun = (await findRun(id))!.workerId === a.id ? a : b;
      // Not the owner: its chunk in flight goes to the other worker. The owner: the run resumes on the other
      // worker and reuses every stored item.
      await (owner ? ownsRun : ownsRun === a ? b : a).kill("SIGKILL");
      await waitStatus(id, "succeeded");
      await expectEachItemStoredOnce(id);
      expect(await gates(id)).toEqual(inProcess.gates);
      expect(await bestSkill(id)).toBe(inProcess.best);
      // A chunk worker's calls count when their item is stored: those of items lost with it count nowhere,
      // the items' run elsewhere counts once. (The owner's calls since its last flush die with it.)
      if (!owner) expect(await usage(id)).toEqual(inProcess.usage);
    },
    300_000,
  );
});
