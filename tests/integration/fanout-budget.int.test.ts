/**
 * The budget of a fanned-out run (`worker.fan_out`) is shared by every worker that makes its calls: the
 * counts live in Redis (lib/backends/policy/shared-budget.ts). With real worker processes on a private
 * Redis and a private SQLite file: the same sample run in one process and fanned out over two workers
 * pauses at the same `budget.max_calls` after the same steps, and a resumed fanned-out run keeps counting
 * from where it paused (no call counted twice, none forgotten). The SharedBudget itself is checked first
 * with two instances standing for two processes.
 */
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { BudgetExhaustedError } from "../../lib/backends/policy/budget";
import { budgetKey, SharedBudget } from "../../lib/backends/policy/shared-budget";
import { resetEnvCache } from "../../lib/config/env";
import type { Db } from "../../lib/db/client";
import { resumeRun } from "../../lib/db/run-recovery";
import { findRun } from "../../lib/db/runs";
import { closeFanOutQueue } from "../../lib/queue/fanout";
import { closeQueue, enqueueRun } from "../../lib/queue/producer";
import { createRunFromRequest } from "../../lib/runs/create";
import { freshDb, useAsDefaultDb } from "../helpers/db";
import { settledRun } from "../helpers/runs";
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
/** Calls the budget allows: the sample run pauses in its second step. */
const MAX_CALLS = 60;
let redis: RedisServer;
let client: Redis;
let db: Db;
let dbUrl: string;
const savedRedisUrl = process.env.REDIS_URL;

beforeAll(async () => {
  redis = await startRedisServer();
  process.env.REDIS_URL = redis.url;
  resetEnvCache();
  await closeQueue();
  client = new Redis(redis.url);
  ({ db, url: dbUrl } = await freshDb("sqlite"));
  useAsDefaultDb(db);
});
afterEach(stopWorkers);
afterAll(async () => {
  await stopWorkers();
  await closeQueue();
  await closeFanOutQueue();
  client.disconnect();
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

const waitStatus = (id: string, status: string, ms = 150_000) =>
  until(
    () => findRun(id),
    (r) => r?.status === status || r?.status === "failed" || r?.status === "succeeded",
    ms,
    `run ${id} to be ${status}`,
  ).then((r) => {
    expect(r?.status, r?.errorMessage ?? "").toBe(status);
  });

const sharedCalls = async (runId: string) => Number(await client.hget(budgetKey(runId), "calls"));
const sharedReserved = async (runId: string) => Number(await client.hget(budgetKey(runId), "rcalls"));

describe("SharedBudget: one budget for two processes", () => {
  const limits = { max_calls: 3, max_usd: null };

  it("counts the calls of both, refuses the one past the limit once nothing is in flight, starts from the database's totals only when absent", async () => {
    const runId = "11111111-1111-4111-8111-111111111111";
    const a = new SharedBudget(client, runId, limits, { calls: 1, usd: 0 });
    const b = new SharedBudget(client, runId, limits, { calls: 0, usd: 0 });
    const r1 = await a.reserve(null);
    const r2 = await b.reserve(null);
    // Full (1 spent + 2 reserved): a third reservation waits for the calls in flight, then is refused.
    const third = b.reserve(null);
    a.settle(r1, null);
    b.settle(r2, null);
    await expect(third).rejects.toBeInstanceOf(BudgetExhaustedError);
    await expect(third).rejects.toThrow("budget exhausted: 3 of 3 calls");
    expect(await sharedCalls(runId)).toBe(3);
    expect(await sharedReserved(runId)).toBe(0);
  });

  it("a reservation released (the call never reached the provider) frees its place; a new session clears stale reservations", async () => {
    const runId = "22222222-2222-4222-8222-222222222222";
    const a = new SharedBudget(client, runId, limits);
    const rs = [await a.reserve(null), await a.reserve(null), await a.reserve(null)];
    a.release(rs[0]!);
    const again = await a.reserve(null);
    a.settle(again, null);
    // The process holding rs[1] and rs[2] died: the owner's next session gives their places back.
    const owner = new SharedBudget(client, runId, limits, { calls: 99, usd: 0 });
    await owner.beginSession();
    expect(await owner.read()).toEqual({ calls: 1, usd: 0, reservedCalls: 0 });
    owner.settle(await owner.reserve(null), null);
    owner.settle(await owner.reserve(null), null);
    await expect(owner.reserve(null)).rejects.toBeInstanceOf(BudgetExhaustedError);
  });
});

describe("budget of a fanned-out run (SQLite, real workers)", () => {
  it("pauses at the same budget as the run in one process, and a resume keeps counting exactly", async () => {
    const [a, b] = [worker("bud-a"), worker("bud-b")];
    await Promise.all([a.ready, b.ready]);
    const create = async (overrides: Record<string, number | boolean>, name: string) =>
      (
        await createRunFromRequest(
          { preset: SAMPLE, overrides: { ...SMALL, "budget.max_calls": MAX_CALLS, ...overrides }, name },
          process.cwd(),
        )
      ).id;

    const here = await create({}, "in one process, small budget");
    await waitStatus(here, "budget_exhausted");
    const paused = await settledRun(here);
    expect(paused.calls).toBe(MAX_CALLS);

    const fanned = await create({ "worker.fan_out": true, "worker.exec_slots": 2 }, "fanned out, small budget");
    await waitStatus(fanned, "budget_exhausted");
    const fannedPaused = await settledRun(fanned);
    expect(fannedPaused.stepsDone).toBe(paused.stepsDone);
    expect(await sharedCalls(fanned)).toBe(MAX_CALLS);
    const chunkRows = await db.fanOutResult.count({ where: { runId: fanned } });
    // The run row counts the owner's calls and those of every chunk worker (stored with their items).
    expect(chunkRows).toBeGreaterThan(0);
    expect(fannedPaused.calls).toBe(MAX_CALLS);

    // Resume with room for 25 more calls: it pauses again after exactly 25, having counted the first 60.
    const more = 25;
    const { gen } = await resumeRun(fanned, {
      staleAfterMs: 60_000,
      budget: { max_calls: MAX_CALLS + more, max_usd: null },
    });
    await enqueueRun(fanned, { gen: gen! });
    await waitStatus(fanned, "budget_exhausted");
    const again = await settledRun(fanned);
    expect(await sharedCalls(fanned)).toBe(MAX_CALLS + more);
    expect(await sharedReserved(fanned)).toBe(0);
    expect(again.calls).toBe(MAX_CALLS + more);
    expect(await db.fanOutResult.count({ where: { runId: fanned } })).toBeGreaterThan(chunkRows);
  }, 400_000);
});
