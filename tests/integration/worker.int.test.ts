import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client";
import { getBestSkill } from "../../lib/db/export";
import { findRun, requestCancel } from "../../lib/db/runs";
import { QUEUES, redisOptions, runChannel } from "../../lib/queue";
import { closeQueue, enqueueRun, getRunQueue } from "../../lib/queue/producer";
import { createRunFromRequest } from "../../lib/runs/create";
import { optimizeRunProcessor } from "../../worker/processors/optimize-run";
import { PROVIDERS, freshDb, useAsDefaultDb } from "../helpers/db";

const quiet = { info: () => {}, warn: () => {} };

function startWorker(id: string, shutdown = new AbortController()) {
  const pub = new Redis(redisOptions());
  const worker = new Worker(
    QUEUES.optimizeRun,
    optimizeRunProcessor({
      workerId: id,
      rootDir: process.cwd(),
      shutdown: shutdown.signal,
      staleAfterMs: 60_000,
      log: quiet,
      publish: (r, s) => void pub.publish(runChannel(r), String(s)),
    }),
    { connection: redisOptions(), concurrency: 2 },
  );
  return { worker, shutdown, close: async () => (await worker.close(), await pub.quit()) };
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(PROVIDERS)("queue → worker → database on %s", (provider) => {
  let db: Db;
  beforeAll(async () => {
    db = (await freshDb(provider)).db;
    useAsDefaultDb(db);
    await getRunQueue().obliterate({ force: true });
  });
  afterAll(async () => {
    await closeQueue();
    await db.$disconnect();
  });

  it("trains a queued run to the end and wakes listeners after each commit", async () => {
    const sub = new Redis(redisOptions());
    const seen = new Map<string, number>();
    await sub.psubscribe("skillopt:run:*");
    sub.on("pmessage", (_p, channel) => seen.set(channel, (seen.get(channel) ?? 0) + 1));
    const w = startWorker("w-a");
    const { id } = await createRunFromRequest(
      { preset: "searchqa/sample.yaml", overrides: { "train.num_epochs": 1 } },
      process.cwd(),
    );
    const run = await until(
      () => findRun(id),
      (r) => r?.status === "succeeded",
    );
    await w.close();
    await sub.quit();
    expect(run!.workerId).toBe("w-a");
    expect(run!.costUsd).toBe(0); // the simulated model is free; a real unknown price would stay null
    const types = (await db.runEvent.findMany({ where: { runId: id }, orderBy: { seq: "asc" } })).map((e) => e.type);
    expect(types[0]).toBe("runClaimed");
    expect(types).toContain("stepCommitted");
    expect(types.at(-1)).toBe("runCompleted");
    expect(seen.get(runChannel(id)) ?? 0).toBeGreaterThan(10);
    expect((await getBestSkill(id)).length).toBeGreaterThan(100);
    const usage = await db.llmUsage.findMany({ where: { runId: id } });
    const rollout = usage.find((u) => u.role === "target" && u.stage === "rollout")!;
    expect(rollout.calls).toBeGreaterThan(50);
    expect(rollout.costUsd).toBe(0);
    expect(usage.find((u) => u.role === "optimizer" && u.stage === "analyst")!.calls).toBeGreaterThan(0);
  });

  it("a duplicate job for a finished run is a no-op", async () => {
    const done = (await db.run.findFirst({ where: { status: "succeeded" } }))!;
    const before = done.lastEventSeq;
    const w = startWorker("w-b");
    await enqueueRun(done.id, { gen: 99 });
    await until(
      () => getRunQueue().getJobCounts("completed"),
      (c) => (c.completed ?? 0) >= 2,
    );
    await w.close();
    expect((await findRun(done.id))!.lastEventSeq).toBe(before);
  });

  it("cancel stops a running run at the next safe point", async () => {
    const w = startWorker("w-c");
    const { id } = await createRunFromRequest(
      { preset: "searchqa/sample.yaml", overrides: { "model.sim_latency_ms": 15 } },
      process.cwd(),
    );
    await until(
      () => findRun(id),
      (r) => (r?.stepsDone ?? 0) >= 1,
    );
    expect(await requestCancel(id)).toBe("cancelling");
    const run = await until(
      () => findRun(id),
      (r) => r?.status === "cancelled",
    );
    await w.close();
    expect(run!.stepsDone).toBeLessThan(9);
    const types = (await db.runEvent.findMany({ where: { runId: id } })).map((e) => e.type);
    expect(types).toContain("runCancelled");
  });

  it("worker shutdown puts the run back in the queue and the next worker finishes it identically", async () => {
    const ref = startWorker("w-ref");
    const a = await createRunFromRequest(
      { preset: "searchqa/sample.yaml", overrides: { "train.num_epochs": 2 } },
      process.cwd(),
    );
    await until(
      () => findRun(a.id),
      (r) => r?.status === "succeeded",
    );
    await ref.close();
    const first = startWorker("w-d");
    const b = await createRunFromRequest(
      { preset: "searchqa/sample.yaml", overrides: { "train.num_epochs": 2, "model.sim_latency_ms": 10 } },
      process.cwd(),
    );
    await until(
      () => findRun(b.id),
      (r) => (r?.stepsDone ?? 0) >= 2,
    );
    first.shutdown.abort();
    await until(
      () => findRun(b.id),
      (r) => r?.status === "queued",
    );
    await first.close();
    const second = startWorker("w-e");
    const run = await until(
      () => findRun(b.id),
      (r) => r?.status === "succeeded",
      60_000,
    );
    await second.close();
    expect(run!.workerId).toBe("w-e");
    expect(await getBestSkill(b.id)).toBe(await getBestSkill(a.id));
    const steps = await db.step.findMany({ where: { runId: b.id } });
    expect(steps).toHaveLength(6);
  });
});
