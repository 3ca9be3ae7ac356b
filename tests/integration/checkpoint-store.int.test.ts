/**
 * The database checkpoint store writes behind (issue 14): writes resolve before they land, land in order in
 * few transactions, reads see the writes issued before them, the first failure surfaces on the next write
 * or flush, and a run killed at any point resumes to the result of an uninterrupted run without losing a
 * committed step. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACT } from "../../lib/contracts/artifacts";
import type { EngineEvent } from "../../lib/contracts/events";
import type { Db } from "../../lib/db/client";
import { DbCheckpointStore } from "../../lib/db/checkpoint-store";
import { persistEngineEvent } from "../../lib/db/engine-events";
import { recordResume } from "../../lib/db/resume-events";
import { RunOwnershipLostError } from "../../lib/db/run-owner";
import { findRun, runConfigOf } from "../../lib/db/runs";
import { runTraining, skillHash, type Trajectory } from "../../lib/engine";
import { prepareRun } from "../../lib/runs/prepare";
import { UsageFlusher } from "../../lib/runs/usage-flusher";
import { createOwnerWriters } from "../../worker/handlers/event-sink";
import { PROVIDERS, freshDb, useAsDefaultDb } from "../helpers/db";
import { createSimRunRow } from "../helpers/sim-run";

/**
 * `db` with a hand on its transactions (the store lands every batch in one): counted, held until released,
 * failed once, slowed down (a slow disk), or refused for good once killed (the process is gone).
 */
function handOn(db: Db) {
  const h = {
    transactions: 0,
    held: null as null | { done: Promise<void>; release(): void },
    failNext: null as Error | null,
    delayMs: 0,
    killed: false,
    hold() {
      let release = () => {};
      const done = new Promise<void>((r) => (release = r));
      h.held = { done, release };
    },
    release() {
      h.held?.release();
      h.held = null;
    },
  };
  const proxy = new Proxy(db, {
    get(target, prop) {
      if (prop !== "$transaction") return Reflect.get(target, prop) as unknown;
      return async (...args: unknown[]) => {
        h.transactions += 1;
        if (h.held) await h.held.done;
        if (h.delayMs > 0) await new Promise((r) => setTimeout(r, h.delayMs));
        if (h.killed) throw new Error("killed");
        if (h.failNext) {
          const e = h.failNext;
          h.failNext = null;
          throw e;
        }
        return (target.$transaction as (...a: unknown[]) => Promise<unknown>)(...args);
      };
    },
  });
  return { db: proxy, h };
}

const row = (id: string, hard = 1): Trajectory =>
  ({ id, hard, soft: hard, status: "ok", prediction: id, conversation: [], taskType: "t" }) as unknown as Trajectory;

const newRunRow = (db: Db, overrides: string[] = []) => createSimRunRow(db, { overrides });

const quiet = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} };

/**
 * One worker session of a run, as the worker drives it (the worker's event sink, usage hook and
 * write-behind store), on a database that dies with the process when `killAfter` says so: from then on no
 * write of this session lands and the engine stops at its next event.
 */
async function session(db: Db, runId: string, killAfter?: (e: EngineEvent) => boolean, slowMs = 0) {
  const run = (await findRun(runId, { db }))!;
  if (run.stepsDone > 0 || (await db.runEvent.count({ where: { runId } })) > 0)
    await recordResume(runId, run.stepsDone + 1, { db });
  // This session owns the run, as a claim makes the worker its owner.
  await db.run.update({ where: { id: runId }, data: { status: "running", workerId: "w" } });
  const config = runConfigOf(run);
  const prepared = prepareRun({ config, rootDir: process.cwd(), trust: "local" });
  const dying = handOn(db);
  dying.h.delayMs = slowMs;
  // The worker's own wiring (worker/handlers/optimize-run.ts), on the database that dies with this process.
  const { sink, store } = await createOwnerWriters({
    runId,
    committedSteps: run.stepsDone,
    ctx: {
      workerId: "w",
      rootDir: process.cwd(),
      shutdown: new AbortController().signal,
      staleAfterMs: 60_000,
      publish: () => {},
      log: quiet,
    } as never,
    usage: new UsageFlusher(() => prepared.policy.stats()),
    db: dying.db,
  });
  const atKill: { stepsDone: number; steps: unknown[] } = { stepsDone: -1, steps: [] };
  const run1 = runTraining({
    config,
    splits: prepared.splits,
    initialSkill: prepared.initialSkill,
    env: prepared.env,
    optimizer: prepared.optimizer,
    target: prepared.target,
    store,
    events: {
      emit: async (e) => {
        if (dying.h.killed) throw new Error("killed");
        await sink.emit(e);
        if (killAfter?.(e)) {
          dying.h.killed = true;
          atKill.stepsDone = (await findRun(runId, { db }))!.stepsDone;
          atKill.steps = await stepsOf(db, runId);
        }
      },
    },
    clock: { now: () => Date.now() },
  });
  return { done: run1, atKill, store };
}

const stepsOf = (db: Db, runId: string) =>
  db.step.findMany({
    where: { runId },
    orderBy: { step: "asc" },
    select: { step: true, action: true, candidateScore: true, currentScore: true, bestScore: true },
  });
const bestSkillOf = async (db: Db, runId: string) =>
  (await db.checkpoint.findUnique({ where: { runId_key: { runId, key: ARTIFACT.bestSkill } } }))?.value;
/** The engine's own per-stage call counts (summary.json): equal counts mean nothing was paid twice. */
const callsByStage = async (db: Db, runId: string) => {
  const r = await db.runArtifact.findUniqueOrThrow({ where: { runId_name: { runId, name: ARTIFACT.summary } } });
  const tokens = (JSON.parse(r.content) as { token_summary: Record<string, { calls: number }> }).token_summary;
  return Object.fromEntries(Object.entries(tokens).map(([stage, t]) => [stage, t.calls]));
};

describe.each(PROVIDERS)("write-behind checkpoint store on %s", (provider) => {
  let db: Db;
  beforeAll(async () => {
    db = (await freshDb(provider)).db;
    useAsDefaultDb(db);
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it.each([false, true])(
    "resolves writes before they land and reads them back (read-your-writes; ownsRun %s)",
    async (ownsRun) => {
      const { id } = await newRunRow(db);
      const { db: slow, h } = handOn(db);
      const store = new DbCheckpointStore(id, slow, { ownsRun });
      h.hold();
      await store.putJson("a.json", { v: 1 });
      await store.putText("b.md", "first");
      await store.putText("b.md", "second");
      await store.putText("c.json", '{"n":3}');
      await store.appendRows("r.jsonl", [row("x"), row("y")]);
      await store.appendLine("r.jsonl", row("z"));
      // Nothing has landed: the transaction is held.
      expect(await db.checkpoint.count({ where: { runId: id } })).toBe(0);
      expect(await store.getJson("a.json")).toEqual({ v: 1 });
      expect(await store.getText("b.md")).toBe("second");
      expect(await store.getJson("c.json")).toEqual({ n: 3 });
      expect(await store.getJson("missing.json")).toBeUndefined();
      // Rows wait for their key's appends to land.
      const rows = store.readRows("r.jsonl");
      h.release();
      expect((await rows).map((r) => r.id)).toEqual(["x", "y", "z"]);
      await store.flush();
      expect(await db.checkpoint.count({ where: { runId: id } })).toBe(3);
      // Landed, they are read from the database, by this store and by a later one.
      expect(await store.getText("b.md")).toBe("second");
      expect((await store.readRows("r.jsonl")).map((r) => r.id)).toEqual(["x", "y", "z"]);
      const later = new DbCheckpointStore(id, db, { ownsRun });
      expect(await later.getText("b.md")).toBe("second");
      expect(await later.getJson("c.json")).toEqual({ n: 3 });
      expect((await later.readRows("r.jsonl")).map((r) => r.id)).toEqual(["x", "y", "z"]);
      expect(await later.readRows("none.jsonl")).toEqual([]);
    },
  );

  it("lands a burst of 2,000 rows in order in a few transactions, each after the usage hook", async () => {
    const { id } = await newRunRow(db);
    const { db: counted, h } = handOn(db);
    const landedAtHook: number[] = [];
    const store = new DbCheckpointStore(id, counted, {
      beforeWrite: async () => {
        landedAtHook.push(await db.checkpointRow.count({ where: { runId: id } }));
      },
    });
    const ids = Array.from({ length: 2_000 }, (_, i) => `item-${i}`);
    for (const i of ids) await store.appendRows("steps/step_0001/rollout/results.jsonl", [row(i)]);
    await store.putJson("steps/step_0001/x.json", { done: true });
    await store.flush();
    expect(h.transactions).toBeLessThanOrEqual(2);
    // The hook ran once per batch, before the batch's rows were there.
    expect(landedAtHook.length).toBe(h.transactions);
    expect(landedAtHook[0]).toBe(0);
    const back = await new DbCheckpointStore(id, db).readRows("steps/step_0001/rollout/results.jsonl");
    expect(back.map((r) => r.id)).toEqual(ids);
    // A later owner (a resumed worker) appends after the rows already stored.
    const next = new DbCheckpointStore(id, db);
    await next.appendLine("steps/step_0001/rollout/results.jsonl", row("late"));
    await next.flush();
    const ords = await db.checkpointRow.findMany({
      where: { runId: id, key: "steps/step_0001/rollout/results.jsonl" },
      orderBy: { ord: "asc" },
      select: { ord: true },
    });
    expect(ords.map((o) => o.ord)).toEqual(Array.from({ length: 2_001 }, (_, i) => i));
  });

  it("a failed write surfaces on the next write and flush, and nothing issued after it lands", async () => {
    const { id } = await newRunRow(db);
    const { db: failing, h } = handOn(db);
    const store = new DbCheckpointStore(id, failing);
    h.hold();
    await store.putText("one.md", "1");
    await store.putText("two.md", "2");
    h.failNext = new Error("disk full");
    h.release();
    await expect(store.flush()).rejects.toThrow("disk full");
    await expect(store.putText("three.md", "3")).rejects.toThrow("disk full");
    await expect(store.appendLine("r.jsonl", row("a"))).rejects.toThrow("disk full");
    await expect(store.getText("one.md")).rejects.toThrow("disk full");
    await expect(store.flush()).rejects.toThrow("disk full");
    expect(await db.checkpoint.count({ where: { runId: id } })).toBe(0);
    expect(await db.checkpointRow.count({ where: { runId: id } })).toBe(0);
  });

  it("a worker that lost its run lands none of its queued writes or events after the take-over", async () => {
    const { id } = await newRunRow(db);
    await db.run.update({ where: { id }, data: { status: "running", workerId: "w1" } });
    const { db: slow, h } = handOn(db);
    const store = new DbCheckpointStore(id, slow, { ownsRun: true, ownerId: "w1" });
    await store.putText("before.md", "mine");
    await store.flush();
    // w1 stalls with writes queued; meanwhile the run is handed on to w2.
    h.hold();
    await store.putText("after.md", "stale");
    await store.appendLine("r.jsonl", row("stale"));
    await db.run.update({ where: { id }, data: { workerId: "w2" } });
    h.release();
    await expect(store.flush()).rejects.toBeInstanceOf(RunOwnershipLostError);
    await expect(store.putText("later.md", "x")).rejects.toBeInstanceOf(RunOwnershipLostError);
    expect((await db.checkpoint.findMany({ where: { runId: id }, select: { key: true } })).map((r) => r.key)).toEqual([
      "before.md",
    ]);
    expect(await db.checkpointRow.count({ where: { runId: id } })).toBe(0);
    // Its events are refused the same way; the new owner's go in.
    const event: EngineEvent = {
      type: "runStarted",
      totalSteps: 6,
      stepsPerEpoch: 3,
      numEpochs: 2,
      trainSize: 10,
      selectionSize: 5,
      testSize: 5,
      resumedFromStep: 0,
    };
    const events = await db.runEvent.count({ where: { runId: id } });
    await expect(persistEngineEvent(id, event, skillHash, db, { ownerId: "w1" })).rejects.toBeInstanceOf(
      RunOwnershipLostError,
    );
    expect(await db.runEvent.count({ where: { runId: id } })).toBe(events);
    await persistEngineEvent(id, event, skillHash, db, { ownerId: "w2" });
    expect(await db.runEvent.count({ where: { runId: id } })).toBe(events + 1);
    // A run no longer running (the stale-run detector marked it interrupted) is nobody's to write.
    await db.run.update({ where: { id }, data: { status: "interrupted" } });
    const w2 = new DbCheckpointStore(id, db, { ownerId: "w2" });
    await w2.putText("x.md", "x");
    await expect(w2.flush()).rejects.toBeInstanceOf(RunOwnershipLostError);
  });

  it("a run killed right after a step commit resumes without paying any call again, to the same result", async () => {
    const ref = await newRunRow(db, ["train.num_epochs=2"]);
    await (
      await session(db, ref.id)
    ).done;
    const victim = await newRunRow(db, ["train.num_epochs=2"]);
    // A slow disk: without the flush before the commit, the step's last writes would still be queued.
    const first = await session(db, victim.id, (e) => e.type === "stepCommitted" && e.step === 2, 30);
    await expect(first.done).rejects.toThrow("killed");
    expect(first.atKill.stepsDone).toBe(2);
    // Every write the committed step depends on had landed when it was recorded.
    for (const key of ["skills/skill_v0002.md", "steps/step_0002/step_record.json"])
      expect(await db.checkpoint.count({ where: { runId: victim.id, key } }), key).toBe(1);
    await (
      await session(db, victim.id)
    ).done;
    const steps = await stepsOf(db, victim.id);
    expect(steps.slice(0, 2)).toEqual(first.atKill.steps);
    expect(steps).toEqual(await stepsOf(db, ref.id));
    expect(await bestSkillOf(db, victim.id)).toBe(await bestSkillOf(db, ref.id));
    expect(await callsByStage(db, victim.id)).toEqual(await callsByStage(db, ref.id));
  });

  it("a run killed mid-step resumes to the same result and keeps every committed step", async () => {
    const ref = await newRunRow(db, ["train.num_epochs=2"]);
    await (
      await session(db, ref.id)
    ).done;
    const victim = await newRunRow(db, ["train.num_epochs=2"]);
    const first = await session(db, victim.id, (e) => e.type === "candidateBuilt" && e.step === 4, 10);
    await expect(first.done).rejects.toThrow("killed");
    expect(first.atKill.stepsDone).toBe(3);
    await (
      await session(db, victim.id)
    ).done;
    const steps = await stepsOf(db, victim.id);
    expect(steps.slice(0, 3)).toEqual(first.atKill.steps);
    expect(steps).toEqual(await stepsOf(db, ref.id));
    expect(await bestSkillOf(db, victim.id)).toBe(await bestSkillOf(db, ref.id));
  });
});
