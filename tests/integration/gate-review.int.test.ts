import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client";
import { buildEditsMarkdown } from "../../lib/db/export";
import { listRunReviews, requeueExpiredReviews, submitReview } from "../../lib/db/gate-reviews";
import { findRun } from "../../lib/db/runs";
import { QUEUES, redisOptions, runChannel } from "../../lib/queue";
import { closeQueue, enqueueRun, getRunQueue } from "../../lib/queue/producer";
import { createRunFromRequest } from "../../lib/runs/create";
import { optimizeRunProcessor } from "../../worker/processors/optimize-run";
import { PROVIDERS, freshDb, useAsDefaultDb } from "../helpers/db";

const quiet = { info: () => {}, warn: () => {} };

function startWorker(id: string) {
  const pub = new Redis(redisOptions());
  const worker = new Worker(
    QUEUES.optimizeRun,
    optimizeRunProcessor({
      workerId: id,
      rootDir: process.cwd(),
      shutdown: new AbortController().signal,
      staleAfterMs: 60_000,
      log: quiet,
      publish: (r, s) => void pub.publish(runChannel(r), String(s)),
    }),
    { connection: redisOptions(), concurrency: 1 },
  );
  return { close: async () => (await worker.close(), await pub.quit()) };
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const settled = (s: string | undefined) => s === "awaiting_review" || s === "succeeded" || s === "failed";

async function reviewRun(overrides: Record<string, unknown>) {
  return createRunFromRequest(
    { preset: "searchqa/sample.yaml", overrides: { "train.num_epochs": 1, ...overrides } },
    process.cwd(),
  );
}

describe.each(PROVIDERS)("human review at the gate on %s", (provider) => {
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

  it("pauses at the gate, survives a worker restart, and resumes with the reviewer's decision", async () => {
    const a = startWorker("w-review-a");
    const { id } = await reviewRun({ "evaluation.human_review": "required" });
    const paused = await until(
      () => findRun(id),
      (r) => settled(r?.status),
    );
    expect(paused!.status).toBe("awaiting_review");
    expect(paused!.finishedAt).toBeNull();
    await a.close(); // the worker goes away while the run waits

    const first = (await listRunReviews(id)).pending!;
    expect(first.step).toBe(1);
    expect(first.mode).toBe("required");
    expect(first.deadlineAt).toBeNull();
    expect(first.request.candidate).not.toBe(first.request.currentSkill);
    expect(first.request.evidence?.nPaired).toBeGreaterThan(0);

    const b = startWorker("w-review-b");
    let decided = 0;
    for (;;) {
      const run = await findRun(id);
      if (run?.status === "succeeded" || run?.status === "failed") break;
      if (run?.status !== "awaiting_review") {
        await until(
          () => findRun(id),
          (r) => settled(r?.status),
        );
        continue;
      }
      const pending = (await listRunReviews(id)).pending!;
      const decision = pending.step === 1 ? "reject" : "accept";
      const { gen } = await submitReview(id, {
        step: pending.step,
        decision,
        note: `step ${pending.step} looked at`,
        author: "ana",
      });
      expect(gen).not.toBeNull();
      await enqueueRun(id, { gen: gen! });
      decided += 1;
      await until(
        () => findRun(id),
        (r) => r?.status !== "awaiting_review",
      );
    }
    await b.close();
    expect((await findRun(id))!.status).toBe("succeeded");
    expect(decided).toBeGreaterThan(0);

    const step1 = await db.step.findUniqueOrThrow({ where: { runId_step: { runId: id, step: 1 } } });
    expect(step1.action).toBe("reject");
    expect(JSON.parse(step1.recordJson).review).toMatchObject({
      decision: "reject",
      source: "reviewer",
      author: "ana",
      note: "step 1 looked at",
    });
    const types = (await db.runEvent.findMany({ where: { runId: id }, orderBy: { seq: "asc" } })).map((e) => e.type);
    expect(types.filter((t) => t === "reviewDecided")).toHaveLength(decided);
    expect(types).toContain("reviewRequested");
    const edits = await buildEditsMarkdown(id);
    expect(edits).toContain("# Human review at the gate");
    expect(edits).toMatch(/Step 1: \*\*reject\*\* by ana/);
    // A decided review cannot be decided twice.
    await expect(submitReview(id, { step: 1, decision: "accept", note: "", author: "" })).rejects.toThrow(
      /no open review/,
    );
  });

  it("an ask review that times out resumes with its fallback", async () => {
    const w = startWorker("w-review-c");
    const { id } = await reviewRun({
      "evaluation.human_review": "ask",
      "evaluation.human_review_timeout_s": 1,
      "evaluation.human_review_fallback": "reject",
    });
    for (;;) {
      const run = await until(
        () => findRun(id),
        (r) => settled(r?.status),
      );
      if (run!.status !== "awaiting_review") break;
      // What the workers' reconcile pass does once the deadline has passed.
      const due = await until(
        () => requeueExpiredReviews(new Date()),
        (r) => r.length > 0,
        5_000,
      );
      expect(due[0]!.runId).toBe(id);
      await enqueueRun(id, { gen: due[0]!.gen });
      await until(
        () => findRun(id),
        (r) => r?.status !== "awaiting_review",
      );
    }
    await w.close();
    expect((await findRun(id))!.status).toBe("succeeded");
    const steps = await db.step.findMany({ where: { runId: id }, orderBy: { step: "asc" } });
    const reviewed = steps.map((s) => JSON.parse(s.recordJson).review).filter(Boolean);
    expect(reviewed.length).toBeGreaterThan(0);
    for (const r of reviewed) expect(r).toMatchObject({ decision: "reject", source: "timeout", action: "reject" });
    expect((await listRunReviews(id)).decided.every((r) => r.decision === "expired")).toBe(true);
  });
});
