import { randomUUID } from "node:crypto";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client";
import { ARTIFACT } from "../../lib/contracts/artifacts";
import { DbCheckpointStore } from "../../lib/db/checkpoint-store";
import { compareRuns } from "../../lib/db/compare";
import { listEventsAfter, persistEngineEvent } from "../../lib/db/engine-events";
import { buildBundle, getBestSkill } from "../../lib/db/export";
import { getRunDetail, getStepDetail } from "../../lib/db/run-views";
import { claimRun, getRun, listRuns, requestCancel } from "../../lib/db/runs";
import { resumeRun } from "../../lib/db/run-recovery";
import { RunCancelledError, runTraining, skillHash } from "../../lib/engine";
import { addLlmUsage } from "../../lib/db/llm-usage";
import { UsageFlusher } from "../../lib/runs/usage-flusher";
import { PROVIDERS, freshDb } from "../helpers/db";
import { createSimRunRow } from "../helpers/sim-run";

async function newRun(db: Db, overrides: string[] = ["train.num_epochs=2"]) {
  const run = await createSimRunRow(db, { overrides });
  return { ...run, usage: new UsageFlusher(() => run.prepared.policy.stats()) };
}

async function train(
  db: Db,
  run: Awaited<ReturnType<typeof newRun>>,
  signal?: AbortSignal,
  onEvent?: (t: string, step?: number) => void,
) {
  return runTraining({
    config: run.config,
    splits: run.prepared.splits,
    initialSkill: run.prepared.initialSkill,
    env: run.prepared.env,
    optimizer: run.prepared.optimizer,
    target: run.prepared.target,
    store: new DbCheckpointStore(run.id, db),
    events: {
      emit: async (e) => {
        await persistEngineEvent(run.id, e, skillHash, db);
        // As the worker does: the backends' usage rows (the source of the run's totals) follow every event.
        await addLlmUsage(run.id, run.usage.take(), db);
        onEvent?.(e.type, "step" in e ? (e.step as number) : undefined);
      },
    },
    clock: { now: () => Date.now() },
    signal,
  });
}

describe.each(PROVIDERS)("database layer on %s", (provider) => {
  let db: Db;
  beforeAll(async () => {
    db = (await freshDb(provider)).db;
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it("a full run persists events, steps, skill versions, edits and evaluations", async () => {
    const run = await newRun(db, []);
    const summary = await train(db, run);
    const events = await listEventsAfter(run.id, 0, 10_000, { db });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]!.type).toBe("runStarted");
    expect(events.at(-1)!.type).toBe("runCompleted");
    expect(JSON.parse(events.find((e) => e.type === "rolloutCompleted")!.payload)).not.toHaveProperty("results");
    const detail = await getRunDetail(run.id, { db });
    expect(detail.steps).toHaveLength(9);
    expect(detail.stepsDone).toBe(9);
    expect(detail.bestScore).toBe(summary.best_selection_hard);
    expect(detail.testBest).toBe(summary.test_hard);
    expect(detail.skillVersions.some((v) => v.kind === "seed")).toBe(true);
    expect(detail.skillVersions.filter((v) => v.kind === "candidate").length).toBeGreaterThan(0);
    expect(detail.usage.find((u) => u.stage === "analyst")!.calls).toBeGreaterThan(0);
    const rejected = detail.steps.find((s) => s.action === "reject");
    expect(rejected).toBeDefined();
    const step = await getStepDetail(run.id, rejected!.step, skillHash, { db });
    expect(step.candidate?.status).toBe("rejected");
    expect(step.current.content).not.toBe(step.candidate!.content);
    expect(step.edits.some((e) => e.stage === "selected" && e.gateStatus === "rejected")).toBe(true);
    expect(step.selection.length).toBe(15);
    const accepted = detail.steps.find((s) => s.action === "accept_new_best")!;
    const acc = await getStepDetail(run.id, accepted.step, skillHash, { db });
    expect(acc.selection.some((r) => r.flipped)).toBe(true);
    expect(acc.edits.some((e) => e.stage === "selected" && e.applyStatus?.startsWith("applied"))).toBe(true);
  });

  it("exports the exact best skill and a bundle; 409 before it exists", async () => {
    const fresh = await newRun(db);
    await expect(getBestSkill(fresh.id, { db })).rejects.toMatchObject({ code: "CONFLICT" });
    const done = (await db.run.findMany({ where: { status: "queued" }, orderBy: { createdAt: "asc" }, take: 1 }))[0]!;
    const best = await getBestSkill(done.id, { db });
    const cp = await new DbCheckpointStore(done.id, db).getText("best_skill.md");
    expect(best).toBe(cp);
    const files = unzipSync(await buildBundle(done.id, { db }));
    expect(strFromU8(files["best_skill.md"]!)).toBe(best);
    expect(strFromU8(files["EDITS.md"]!)).toMatch(
      /^# Accepted edits\n\n## Step 1 \(epoch 1\) — accept_new_best, gate 0\.\d{4} → 0\.\d{4} \(Δ \+0\.\d{4}\)/,
    );
    expect(JSON.parse(strFromU8(files["summary.json"]!)).best_selection_hard).toBeGreaterThan(0);
    expect(strFromU8(files["config.yaml"]!)).toContain("searchqa");
  });

  it("resumes from the database checkpoint with the same result and no repeated calls", async () => {
    const a = await newRun(db);
    await train(db, a);
    const b = await newRun(db);
    const ac = new AbortController();
    await expect(
      train(db, b, ac.signal, (t, step) => t === "candidateBuilt" && step === 4 && ac.abort()),
    ).rejects.toThrow(RunCancelledError);
    await train(db, b);
    expect(await getBestSkill(b.id, { db })).toBe(await getBestSkill(a.id, { db }));
    const stepsA = await db.step.findMany({
      where: { runId: a.id },
      orderBy: { step: "asc" },
      select: { step: true, action: true, candidateScore: true },
    });
    const stepsB = await db.step.findMany({
      where: { runId: b.id },
      orderBy: { step: "asc" },
      select: { step: true, action: true, candidateScore: true },
    });
    expect(stepsB).toEqual(stepsA);
    // The engine's own per-stage call counts (summary.json's token_summary) match: nothing was paid twice.
    const callsByStage = async (runId: string) => {
      const row = await db.runArtifact.findUniqueOrThrow({ where: { runId_name: { runId, name: ARTIFACT.summary } } });
      const tokens = (JSON.parse(row.content) as { token_summary: Record<string, { calls: number }> }).token_summary;
      return Object.fromEntries(Object.entries(tokens).map(([stage, t]) => [stage, t.calls]));
    };
    expect(Object.keys(await callsByStage(a.id)).length).toBeGreaterThan(0);
    expect(await callsByStage(b.id)).toEqual(await callsByStage(a.id));
  });

  it("claims once, cancels and resumes", async () => {
    const r = await newRun(db);
    expect(await claimRun(r.id, "w1", { db })).toBe(true);
    expect(await claimRun(r.id, "w2", { db })).toBe(false);
    expect(await requestCancel(r.id, { db })).toBe("cancelling");
    await db.run.update({ where: { id: r.id }, data: { status: "cancelled" } });
    await expect(requestCancel(r.id, { db })).rejects.toMatchObject({ code: "CONFLICT" });
    // A cancelled run can be resumed (it continues from its last committed step); a finished one cannot.
    expect(await resumeRun(r.id, { db, staleAfterMs: 60_000 })).toMatchObject({ status: "queued" });
    expect((await getRun(r.id, { db })).status).toBe("queued");
    const finished = await newRun(db);
    await db.run.update({ where: { id: finished.id }, data: { status: "succeeded" } });
    await expect(resumeRun(finished.id, { db, staleAfterMs: 60_000 })).rejects.toMatchObject({ code: "CONFLICT" });
    const q = await newRun(db);
    expect(await requestCancel(q.id, { db })).toBe("cancelled");
    await db.run.update({ where: { id: q.id }, data: { status: "interrupted", cancelRequested: false } });
    expect(await resumeRun(q.id, { db, staleAfterMs: 60_000 })).toEqual({ status: "queued", gen: 1 });
    expect((await getRun(q.id, { db })).status).toBe("queued");
    // A second click finds it queued: no second job generation.
    expect(await resumeRun(q.id, { db, staleAfterMs: 60_000 })).toEqual({ status: "queued", gen: null });
    expect((await getRun(q.id, { db })).jobGen).toBe(1);
    await expect(getRun(randomUUID(), { db })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("lists with filters and a cursor, and compares runs", async () => {
    const all = await listRuns({}, { db });
    expect(all.runs.length).toBeGreaterThanOrEqual(5);
    const page1 = await listRuns({ limit: 2 }, { db });
    const page2 = await listRuns({ limit: 2, cursor: page1.nextCursor! }, { db });
    expect(page2.runs[0]!.id).not.toBe(page1.runs[1]!.id);
    expect((await listRuns({ status: "cancelled" }, { db })).runs.every((r) => r.status === "cancelled")).toBe(true);
    expect((await listRuns({ env: "livemath" }, { db })).runs).toHaveLength(0);
    const done = (await db.step.findMany({ distinct: ["runId"], select: { runId: true } }))
      .map((s) => s.runId)
      .slice(0, 2);
    const c = await compareRuns(done, { db });
    expect(c.runs).toHaveLength(2);
    expect(c.runs[0]!.curve.length).toBeGreaterThan(1);
  });
});
