/**
 * Persists one engine event: a RunEvent row (the SSE source) plus the rows the pages read — steps, skill
 * versions, edits, evaluation results, usage and the run's counters — in one transaction. Every derived
 * write is an upsert or a replace keyed by step, so an event replayed after a crash changes nothing.
 */
import { randomUUID } from "node:crypto";
import type { EngineEvent, EvalItem, EditView } from "../contracts/events";
import { ARTIFACT, type ArtifactName } from "../contracts/artifacts";
import { parseOrigin, type BestMeasuredBy } from "../contracts/best";
import type { LifecycleEvent } from "../contracts/run-events";
import { getDb, type Db, type DbTx } from "./client";

/** The event as stored and streamed: bulky parts (skills, per-item results, edit lists) live in their own rows. */
export function leanPayload(e: EngineEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { ...e };
  for (const k of ["results", "edits"] as const) {
    if (k in out) {
      out[k === "results" ? "nResults" : "nEdits"] = (out[k] as unknown[]).length;
      delete out[k];
    }
  }
  for (const k of ["candidate", "currentSkill", "bestSkill"]) delete out[k];
  if (e.type === "slowUpdateApplied" && e.gateScored)
    out.gateScored = { candidateHash: e.gateScored.candidateHash, nResults: e.gateScored.results.length };
  return out;
}

async function replaceEvals(
  tx: DbTx,
  runId: string,
  step: number,
  label: string,
  split: string,
  skillHash: string,
  items: EvalItem[],
) {
  await tx.evalResult.deleteMany({ where: { runId, step, label } });
  if (items.length === 0) return;
  await tx.evalResult.createMany({
    data: items.map((r) => ({
      id: randomUUID(),
      runId,
      step,
      label,
      split,
      skillHash,
      itemId: r.id,
      hard: r.hard,
      soft: r.soft,
      status: r.status,
      prediction: r.prediction ?? null,
      reference: r.reference ?? null,
      failReason: r.failReason ?? null,
      trajectory: r.trajectory ?? null,
      latencyMs: r.latencyMs === undefined ? null : Math.round(r.latencyMs),
      promptTokens: r.promptTokens ?? null,
      completionTokens: r.completionTokens ?? null,
    })),
  });
}

async function replaceEdits(tx: DbTx, runId: string, step: number, stage: string, edits: EditView[]) {
  await tx.edit.deleteMany({ where: { runId, step, stage } });
  if (edits.length === 0) return;
  await tx.edit.createMany({
    data: edits.map((e, ord) => ({
      id: randomUUID(),
      runId,
      step,
      ord,
      stage,
      origin: e.origin,
      op: e.op,
      target: e.target ?? null,
      content: e.content ?? null,
      rationale: e.rationale ?? null,
      support: e.support ?? null,
      mergeLevel: e.mergeLevel ?? null,
    })),
  });
}

async function upsertSkill(
  tx: DbTx,
  runId: string,
  v: { kind: string; step: number; epoch: number; content: string; hash: string; fields?: Record<string, unknown> },
) {
  const data = { content: v.content, contentHash: v.hash, epoch: v.epoch, ...v.fields };
  await tx.skillVersion.upsert({
    where: { runId_kind_step: { runId, kind: v.kind, step: v.step } },
    create: { id: randomUUID(), runId, kind: v.kind, step: v.step, ...data },
    update: data,
  });
}

/** Writes an export row (same transaction as the run's best, so a download works whenever the page says "best"). */
async function putArtifact(
  tx: DbTx,
  runId: string,
  name: ArtifactName,
  content: string,
  contentHash: string,
): Promise<void> {
  await tx.runArtifact.upsert({
    where: { runId_name: { runId, name } },
    create: { runId, name, content, contentHash },
    update: { content, contentHash },
  });
}

/** Where a best skill's score was measured, from its origin (the final check is said by its own event). */
function measuredByOf(origin: string): BestMeasuredBy {
  const o = parseOrigin(origin);
  return o.kind === "seed" ? "baseline" : o.kind === "slow_update" ? "slow_update_gate" : "step_gate";
}

/** The run's best-skill columns for a best skill of this origin and content. */
function bestOf(origin: string, content: string, _hash: string, measuredBy: BestMeasuredBy = measuredByOf(origin)) {
  return { bestOrigin: origin, bestMeasuredBy: measuredBy, bestBytes: Buffer.byteLength(content, "utf8") };
}

/** At a step commit: a best that did not change keeps where it was measured. */
async function keptBest(tx: DbTx, runId: string, origin: string, content: string, hash: string) {
  const run = await tx.run.findUniqueOrThrow({
    where: { id: runId },
    select: { bestOrigin: true, bestMeasuredBy: true, bestSkillHash: true },
  });
  if (run.bestOrigin === origin && run.bestSkillHash === hash && run.bestMeasuredBy)
    return bestOf(origin, content, hash, run.bestMeasuredBy as BestMeasuredBy);
  return bestOf(origin, content, hash);
}

const CANDIDATE_STATUS: Record<Extract<EngineEvent, { type: "gateDecided" }>["action"], string> = {
  force_accept: "force_accepted",
  reject: "rejected",
  accept: "accepted",
  accept_new_best: "accepted_new_best",
  skip_errors: "skipped_errors",
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
      if (e.gateScored)
        await replaceEvals(
          tx,
          runId,
          run.stepsDone,
          "slow_update",
          "selection",
          e.gateScored.candidateHash,
          e.gateScored.results,
        );
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

async function commitStepRows(
  tx: DbTx,
  runId: string,
  e: Extract<EngineEvent, { type: "stepCommitted" }>,
): Promise<void> {
  const r = e.record as Record<string, number | string | null | undefined>;
  const num = (k: string) => (typeof r[k] === "number" ? (r[k] as number) : null);
  const summary = (r.edit_apply_summary ?? {}) as unknown as Record<string, number>;
  const data = {
    epoch: e.epoch,
    stepInEpoch: num("step_in_epoch") ?? 0,
    action: e.action,
    budget: num("edit_budget"),
    nFailurePatches: num("n_failure_patches") ?? 0,
    nSuccessPatches: num("n_success_patches") ?? 0,
    nMerged: num("n_edits_merged") ?? 0,
    nRanked: num("n_edits_ranked") ?? 0,
    nApplied: summary.applied ?? 0,
    nSkipped: summary.skipped ?? 0,
    trainHard: num("rollout_hard"),
    trainSoft: num("rollout_soft"),
    selectionHard: num("selection_hard"),
    selectionSoft: num("selection_soft"),
    candidateScore: num("candidate_gate_score"),
    currentScore: e.currentScore,
    bestScore: e.bestScore,
    candidateHash: typeof r.candidate_hash === "string" ? r.candidate_hash : null,
    recordJson: JSON.stringify(e.record),
  };
  await tx.step.upsert({
    where: { runId_step: { runId, step: e.step } },
    create: { runId, step: e.step, ...data },
    update: data,
  });
  // Calls and tokens per stage as the engine counted them (history.json's view); the run's totals come
  // from the backends' usage rows instead (llm-usage.ts), which also count calls made between commits.
  for (const [stage, s] of Object.entries(e.tokens)) {
    const u = { calls: s.calls, promptTokens: s.prompt_tokens, completionTokens: s.completion_tokens };
    await tx.usageStat.upsert({ where: { runId_stage: { runId, stage } }, create: { runId, stage, ...u }, update: u });
  }
  await tx.run.update({
    where: { id: runId },
    data: {
      stepsDone: e.step,
      epoch: e.epoch,
      currentScore: e.currentScore,
      bestScore: e.bestScore,
      bestStep: e.bestStep,
      bestSkillHash: e.bestHash,
      ...(e.bestOrigin === undefined ? {} : await keptBest(tx, runId, e.bestOrigin, e.bestSkill, e.bestHash)),
    },
  });
  await putArtifact(tx, runId, ARTIFACT.bestSkill, e.bestSkill, e.bestHash);
}

/**
 * Stores one event and its derived rows in one transaction and returns the event's sequence number.
 * `hash` is the engine's skill hash (passed in so lib/db stays free of engine runtime imports).
 */
export async function persistEngineEvent(
  runId: string,
  e: EngineEvent,
  hash: (s: string) => string,
  db: Db = getDb(),
): Promise<number> {
  return db.$transaction(async (tx) => {
    // Each stored event is also a heartbeat: a busy worker never looks dead between timer ticks.
    const run = await tx.run.update({
      where: { id: runId },
      data: { lastEventSeq: { increment: 1 }, heartbeatAt: new Date() },
      select: { lastEventSeq: true },
    });
    await tx.runEvent.create({
      data: { runId, seq: run.lastEventSeq, type: e.type, payload: JSON.stringify(leanPayload(e)) },
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
    data: { runId, seq: run.lastEventSeq, type: event.type, payload: JSON.stringify(event) },
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
