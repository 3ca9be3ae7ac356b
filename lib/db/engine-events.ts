/**
 * Persists one engine event: a RunEvent row (the SSE source) plus the rows the pages read — steps, skill
 * versions, edits, evaluation results, usage and the run's counters — in one transaction. Every derived
 * write is an upsert or a replace keyed by step, so an event replayed after a crash changes nothing.
 */
import type { EngineEvent, EngineEventOf } from "../contracts/events";
import { ARTIFACT } from "../contracts/artifacts";
import type { LifecycleEvent } from "../contracts/run-events";
import { leanPayload, storedPayloadJson } from "../contracts/stored-events";
import { getDb, type Db, type DbTx } from "./client";
import { bestOf, keptBest, putArtifact, replaceEdits, replaceEvals, upsertSkill } from "./event-rows";
import { ownedBy, RunOwnershipLostError } from "./run-owner";
import { commitStepRows } from "./step-rows";

const CANDIDATE_STATUS: Record<Extract<EngineEvent, { type: "gateDecided" }>["action"], string> = {
  force_accept: "force_accepted",
  reject: "rejected",
  accept: "accepted",
  accept_new_best: "accepted_new_best",
  skip_errors: "skipped_errors",
};

/** The EvalResult split of an evaluation run's items (valid_seen is the selection split, valid_unseen the test split). */
const EVAL_RESULT_SPLIT: Record<EngineEventOf<"evalCompleted">["split"], string> = {
  all: "all",
  train: "train",
  valid_seen: "selection",
  valid_unseen: "test",
};

/** Applies the derived-row changes of one event. */
async function applyEvent(tx: DbTx, runId: string, e: EngineEvent, hash: (s: string) => string): Promise<void> {
  switch (e.type) {
    case "runStarted":
      await tx.run.update({ where: { id: runId }, data: { stepsTotal: e.totalSteps, numEpochs: e.numEpochs } });
      return;
    case "baselineScored": {
      const run = await tx.run.findUniqueOrThrow({ where: { id: runId }, select: { seedSkill: true } });
      await tx.run.update({
        where: { id: runId },
        data: {
          baselineScore: e.score,
          currentScore: e.score,
          bestScore: e.score,
          bestStep: 0,
          bestSkillHash: e.skillHash,
          ...bestOf("initial_skill", run.seedSkill, e.skillHash),
        },
      });
      await putArtifact(tx, runId, ARTIFACT.bestSkill, run.seedSkill, e.skillHash);
      await upsertSkill(tx, runId, {
        kind: "seed",
        step: 0,
        epoch: 0,
        content: run.seedSkill,
        hash: e.skillHash,
        fields: { selectionHard: e.hard, selectionSoft: e.soft, gateScore: e.score, status: "accepted" },
      });
      await replaceEvals(tx, runId, 0, "baseline", "selection", e.skillHash, e.results);
      return;
    }
    case "stepStarted":
      await tx.run.update({ where: { id: runId }, data: { epoch: e.epoch } });
      return;
    case "rolloutCompleted":
      await replaceEvals(tx, runId, e.step, "rollout", "train", "", e.results);
      return;
    case "patchesProposed":
      return replaceEdits(tx, runId, e.step, "proposed", e.edits);
    case "patchesMerged":
      return replaceEdits(tx, runId, e.step, "merged", e.edits);
    case "editsSelected":
      return replaceEdits(tx, runId, e.step, "selected", e.edits);
    case "candidateBuilt": {
      const run = await tx.run.findUniqueOrThrow({ where: { id: runId }, select: { epoch: true } });
      await upsertSkill(tx, runId, {
        kind: "candidate",
        step: e.step,
        epoch: run.epoch,
        content: e.candidate,
        hash: e.candidateHash,
      });
      for (const row of e.applyReport ?? []) {
        await tx.edit.updateMany({
          where: { runId, step: e.step, stage: "selected", ord: row.index - 1 },
          data: { applyStatus: row.status },
        });
      }
      return;
    }
    case "candidateScored": {
      const cand = await tx.skillVersion.findUnique({
        where: { runId_kind_step: { runId, kind: "candidate", step: e.step } },
        select: { contentHash: true },
      });
      await tx.skillVersion.updateMany({
        where: { runId, kind: "candidate", step: e.step },
        data: { selectionHard: e.hard, selectionSoft: e.soft, gateScore: e.gateScore },
      });
      if (!e.cached)
        await replaceEvals(tx, runId, e.step, "selection", "selection", cand?.contentHash ?? "", e.results);
      return;
    }
    case "gateDecided": {
      const status = CANDIDATE_STATUS[e.action];
      await tx.skillVersion.updateMany({ where: { runId, kind: "candidate", step: e.step }, data: { status } });
      const gateStatus = e.action === "reject" ? "rejected" : e.action === "skip_errors" ? "skipped" : "accepted";
      await tx.edit.updateMany({ where: { runId, step: e.step, stage: "selected" }, data: { gateStatus } });
      await tx.run.update({
        where: { id: runId },
        data: { currentScore: e.currentScore, bestScore: e.bestScore, bestStep: e.bestStep },
      });
      return;
    }
    case "stepCommitted":
      return commitStepRows(tx, runId, e);
    case "slowUpdateApplied": {
      const run = await tx.run.findUniqueOrThrow({ where: { id: runId }, select: { stepsDone: true } });
      await upsertSkill(tx, runId, {
        kind: "slow_update",
        step: run.stepsDone,
        epoch: e.epoch,
        content: e.currentSkill,
        hash: hash(e.currentSkill),
        fields: { status: e.action, selectionHard: e.selectionHard },
      });
      // The slow-update gate's per-item results, stored like a step's candidate evaluation (item history, evidence).
      if (e.gateScored) {
        const { candidateHash, results } = e.gateScored;
        await replaceEvals(tx, runId, run.stepsDone, "slow_update", "selection", candidateHash, results);
      }
      if (e.bestOrigin !== undefined && e.bestSkill !== undefined) {
        const h = hash(e.bestSkill);
        await tx.run.update({
          where: { id: runId },
          data: { bestScore: e.bestScore ?? undefined, bestSkillHash: h, ...bestOf(e.bestOrigin, e.bestSkill, h) },
        });
        await putArtifact(tx, runId, ARTIFACT.bestSkill, e.bestSkill, h);
      }
      return;
    }
    case "testScored": {
      const field = e.which === "initial" ? "testInitial" : e.which === "best" ? "testBest" : "testFinal";
      await tx.run.update({ where: { id: runId }, data: { [field]: e.hard } });
      await replaceEvals(tx, runId, 0, `test_${e.which}`, "test", "", e.results);
      return;
    }
    case "finalSelectionChecked": {
      // The check scored a skill that is already a version (usually the last slow update): give it its score.
      await tx.skillVersion.updateMany({
        where: { runId, contentHash: e.skillHash, selectionHard: null },
        data: { selectionHard: e.hard, selectionSoft: e.soft, gateScore: e.gateScore },
      });
      if (e.promoted) {
        await tx.run.update({
          where: { id: runId },
          data: {
            bestScore: e.bestScore,
            bestSkillHash: e.skillHash,
            ...bestOf(e.bestOrigin, e.bestSkill, e.skillHash, "final_check"),
          },
        });
        await putArtifact(tx, runId, ARTIFACT.bestSkill, e.bestSkill, e.skillHash);
      }
      return;
    }
    case "evalCompleted": {
      // An evaluation run (`skillopt eval`): the scored items, and one line saying what was measured.
      await replaceEvals(tx, runId, 0, `eval_${e.split}`, EVAL_RESULT_SPLIT[e.split], e.skillHash, e.results);
      const unanswered = e.nErrors + e.nTimeouts + e.nTruncated;
      const stopReason =
        `evaluation only: ${e.split} split, ${e.nItems} items, hard ${e.hard.toFixed(3)}, soft ${e.soft.toFixed(3)}` +
        (unanswered > 0 ? ` over the answered items (${unanswered} not answered)` : "");
      await tx.run.update({ where: { id: runId }, data: { stopReason } });
      return;
    }
    case "runCompleted": {
      // The end-of-run validation may promote the final skill: the summary holds the last word on best.
      const best = typeof e.summary.best_selection_hard === "number" ? e.summary.best_selection_hard : undefined;
      await upsertSkill(tx, runId, {
        kind: "final",
        step: 0,
        epoch: 0,
        content: e.bestSkill,
        hash: hash(e.bestSkill),
        fields: { status: "accepted", gateScore: best ?? null },
      });
      const bestStep = typeof e.summary.best_step === "number" ? e.summary.best_step : undefined;
      const origin = typeof e.summary.best_origin === "string" ? e.summary.best_origin : undefined;
      const where = origin === undefined ? {} : await keptBest(tx, runId, origin, e.bestSkill, hash(e.bestSkill));
      await tx.run.update({
        where: { id: runId },
        data: { bestSkillHash: hash(e.bestSkill), stopReason: e.stopReason, bestScore: best, bestStep, ...where },
      });
      await putArtifact(tx, runId, ARTIFACT.bestSkill, e.bestSkill, hash(e.bestSkill));
      const summaryText = JSON.stringify(e.summary, null, 2);
      await putArtifact(tx, runId, ARTIFACT.summary, summaryText, hash(summaryText));
      return;
    }
    case "metaSkillUpdated":
    case "epochCompleted":
    case "runFailed":
    case "runCancelled":
    case "runPaused":
      return;
  }
}

/**
 * Stores one event and its derived rows in one transaction and returns the event's sequence number.
 * `hash` is the engine's skill hash (passed in so lib/db stays free of engine runtime imports). With
 * `ownerId` it is stored only while that worker owns the run (RunOwnershipLostError otherwise).
 */
export async function persistEngineEvent(
  runId: string,
  e: EngineEvent,
  hash: (s: string) => string,
  db: Db = getDb(),
  { ownerId }: { ownerId?: string } = {},
): Promise<number> {
  return db.$transaction(async (tx) => {
    // Each stored event is also a heartbeat: a busy worker never looks dead between timer ticks.
    const data = { lastEventSeq: { increment: 1 }, heartbeatAt: new Date() };
    const select = { lastEventSeq: true };
    // With `ownerId`, only while that worker still owns the run: the fence and the sequence are one update.
    const [run] =
      ownerId === undefined
        ? [await tx.run.update({ where: { id: runId }, data, select })]
        : await tx.run.updateManyAndReturn({ where: ownedBy(runId, ownerId), data, select });
    if (!run) throw new RunOwnershipLostError(runId, ownerId!);
    await tx.runEvent.create({
      data: {
        runId,
        seq: run.lastEventSeq,
        type: e.type,
        payload: storedPayloadJson(run.lastEventSeq, leanPayload(e)),
      },
    });
    await applyEvent(tx, runId, e, hash);
    return run.lastEventSeq;
  }, TX_OPTIONS);
}

/**
 * SQLite has one writer: a transaction may wait for another run's (a large batch of results) before it
 * starts. Prisma's defaults (2 s to start, 5 s to finish) are too tight for that on a busy machine.
 */
export const TX_OPTIONS = { maxWait: 15_000, timeout: 60_000 };

/** Appends a lifecycle event inside a caller's transaction (so a status change and its event commit together). */
export async function appendRunEventTx(tx: DbTx, runId: string, event: LifecycleEvent): Promise<number> {
  const run = await tx.run.update({
    where: { id: runId },
    data: { lastEventSeq: { increment: 1 } },
    select: { lastEventSeq: true },
  });
  await tx.runEvent.create({
    data: { runId, seq: run.lastEventSeq, type: event.type, payload: storedPayloadJson(run.lastEventSeq, event) },
  });
  return run.lastEventSeq;
}

/** Appends an event that did not come from the engine (claimed, queued, worker lost …). */
export async function appendRunEvent(
  runId: string,
  event: LifecycleEvent,
  { db = getDb() }: { db?: Db } = {},
): Promise<number> {
  return db.$transaction((tx) => appendRunEventTx(tx, runId, event), TX_OPTIONS);
}

/** Events after `seq`, oldest first (the SSE tail); events a resumed attempt superseded are left out. */
export async function listEventsAfter(runId: string, seq: number, limit = 500, { db = getDb() }: { db?: DbTx } = {}) {
  return db.runEvent.findMany({
    where: { runId, seq: { gt: seq }, superseded: false },
    orderBy: { seq: "asc" },
    take: limit,
  });
}
