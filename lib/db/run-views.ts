/**
 * Read models for the pages: the run detail (run + steps + skill versions + usage) and one step's detail
 * (current vs candidate skill, edits, per-item selection outcomes with flips). Dates become ISO strings.
 */
import type { EditRow, RunDetail, RunListItem, StepDetail, StepRow } from "../contracts/api";
import { coverageOfRecord } from "../contracts/coverage";
import { usageByStage } from "../contracts/usage-totals";
import { errorLine } from "../contracts/error-line";
import { AppError } from "../errors";
import { getDb, type DbTx } from "./client";
import { lastKnownCurrent } from "./item-history";
import { getSkillVersion } from "./skill-versions";
import { getRun, runConfigOf, type RUN_LIST_SELECT } from "./runs";

type Opts = { db?: DbTx };
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toListItem(
  r: { [K in keyof typeof RUN_LIST_SELECT]: unknown } & { tags?: string[]; note?: string | null },
): RunListItem {
  const row = r as unknown as Omit<RunListItem, "createdAt" | "startedAt" | "finishedAt" | "tags" | "note"> & {
    createdAt: Date;
    startedAt: Date | null;
    finishedAt: Date | null;
  };
  // Rows stored before errors were cleaned at the source still hold multi-line dumps: show one line.
  const errorMessage = row.errorMessage === null ? null : errorLine(row.errorMessage);
  return {
    ...row,
    errorMessage,
    tags: r.tags ?? [],
    note: r.note ?? null,
    createdAt: row.createdAt.toISOString(),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
  };
}

function toStepRow(s: Record<string, unknown> & { createdAt: Date; recordJson: string }): StepRow {
  const { runId: _r, recordJson, candidateHash: _h, createdAt, ...rest } = s;
  const coverage = coverageOfRecord(parseRecord(recordJson));
  return {
    ...(rest as unknown as Omit<StepRow, "createdAt" | "coverage">),
    coverage,
    createdAt: createdAt.toISOString(),
  };
}

function parseRecord(json: string): Record<string, unknown> {
  const v: unknown = JSON.parse(json);
  return v !== null && typeof v === "object" ? (v as Record<string, unknown>) : {};
}

export async function getRunDetail(id: string, { db = getDb() }: Opts = {}): Promise<RunDetail> {
  const run = await getRun(id, { db });
  const [steps, versions, backendUsage, tags] = await Promise.all([
    db.step.findMany({ where: { runId: id }, orderBy: { step: "asc" } }),
    db.skillVersion.findMany({ where: { runId: id }, orderBy: [{ step: "asc" }, { createdAt: "asc" }] }),
    db.llmUsage.findMany({ where: { runId: id }, orderBy: [{ role: "asc" }, { stage: "asc" }] }),
    db.runTag.findMany({ where: { runId: id }, orderBy: { tag: "asc" } }),
  ]);
  const base = toListItem({ ...run, tags: tags.map((t) => t.tag) });
  let etaSeconds: number | null = null;
  if (run.status === "running" && run.startedAt && run.stepsDone > 0) {
    const perStep =
      (Date.now() - run.startedAt.getTime()) / 1000 / Math.max(run.stepsDone - (steps[0]?.step ?? 1) + 1, 1);
    etaSeconds = Math.round(perStep * Math.max(run.stepsTotal - run.stepsDone, 0));
  }
  return {
    ...base,
    config: runConfigOf(run),
    sourceYaml: run.sourceYaml,
    seedSkill: run.seedSkill,
    currentScore: run.currentScore,
    bestStep: run.bestStep,
    bestSkillHash: run.bestSkillHash,
    testFinal: run.testFinal,
    stopReason: run.stopReason,
    cancelRequested: run.cancelRequested,
    lastEventSeq: run.lastEventSeq,
    autoRestarts: run.autoRestarts,
    etaSeconds,
    steps: steps.map((s) => toStepRow(s)),
    skillVersions: versions.map((v) => ({
      kind: v.kind,
      step: v.step,
      epoch: v.epoch,
      contentHash: v.contentHash,
      status: v.status,
      selectionHard: v.selectionHard,
      gateScore: v.gateScore,
      chars: v.content.length,
    })),
    // The same usage rows the run's totals are summed from, so "Tokens by stage" adds up to the header.
    usage: usageByStage(backendUsage),
    backendUsage: backendUsage.map(({ runId: _r, errorsJson, ...u }) => ({
      ...u,
      errors: JSON.parse(errorsJson) as Record<string, number>,
    })),
  };
}

/** The skill a step started from: the engine's snapshot after the previous step (or the seed). */
async function skillBefore(db: DbTx, runId: string, step: number): Promise<string> {
  const key = `skills/skill_v${String(step - 1).padStart(4, "0")}.md`;
  const cp = await db.checkpoint.findUnique({ where: { runId_key: { runId, key } }, select: { value: true } });
  if (cp) return cp.value;
  // No snapshot (a CLI run keeps its checkpoints in its folder): the chain of stored versions says which.
  return (await getSkillVersion(runId, `after:${step - 1}`, { db })).content;
}

export async function getStepDetail(
  runId: string,
  step: number,
  hash: (s: string) => string,
  { db = getDb() }: Opts = {},
): Promise<StepDetail> {
  const row = await db.step.findUnique({ where: { runId_step: { runId, step } } });
  if (!row)
    throw new AppError("NOT_FOUND", `step ${step} of run ${runId} not found`, {
      userMessage: `Step ${step} has not been committed yet.`,
    });
  const current = await skillBefore(db, runId, step);
  const currentHash = hash(current);
  const [cand, edits, candEvals, currentEvals] = await Promise.all([
    db.skillVersion.findUnique({ where: { runId_kind_step: { runId, kind: "candidate", step } } }),
    db.edit.findMany({ where: { runId, step }, orderBy: [{ stage: "asc" }, { ord: "asc" }] }),
    db.evalResult.findMany({ where: { runId, step, label: "selection" }, orderBy: { itemId: "asc" } }),
    db.evalResult.findMany({
      where: { runId, skillHash: currentHash, split: "selection" },
      select: { itemId: true, hard: true },
    }),
  ]);
  // A cached candidate has no rows of its own this step: its results are those of the same skill hash.
  const candRows =
    candEvals.length > 0 || !cand
      ? candEvals
      : await db.evalResult.findMany({
          where: { runId, skillHash: cand.contentHash, split: "selection" },
          orderBy: { itemId: "asc" },
        });
  // A current skill never measured itself (e.g. after an appendix flush): its last known results stand in.
  const known = currentEvals.length > 0 ? null : await lastKnownCurrent(db, runId, step);
  const curHard = new Map((known?.rows ?? currentEvals).map((e) => [e.itemId, e.hard]));
  const { runId: _r, recordJson, candidateHash: _h, ...stepCols } = row;
  return {
    step: { ...toStepRow({ ...stepCols, runId, recordJson, candidateHash: null }), record: parseRecord(recordJson) },
    current: { content: current, hash: currentHash },
    candidate: cand
      ? {
          content: cand.content,
          hash: cand.contentHash,
          status: cand.status,
          selectionHard: cand.selectionHard,
          selectionSoft: cand.selectionSoft,
          gateScore: cand.gateScore,
        }
      : null,
    edits: edits.map(({ id: _i, runId: _x, step: _s, ...e }): EditRow => e),
    selection: dedupeByItem(candRows).map((e) => {
      const before = curHard.get(e.itemId) ?? null;
      return {
        itemId: e.itemId,
        hard: e.hard,
        soft: e.soft,
        status: e.status,
        prediction: e.prediction,
        reference: e.reference,
        failReason: e.failReason,
        currentHard: before,
        flipped: before !== null && before >= 1 !== e.hard >= 1,
      };
    }),
    currentKnown: currentEvals.length > 0,
    currentFromStep: known?.fromStep ?? null,
  };
}

function dedupeByItem<T extends { itemId: string }>(rows: T[]): T[] {
  const seen = new Set<string>();
  return rows.filter((r) => (seen.has(r.itemId) ? false : (seen.add(r.itemId), true)));
}

export async function listEvalResults(
  runId: string,
  filter: { step?: number; label?: string },
  { db = getDb() }: Opts = {},
) {
  return db.evalResult.findMany({
    where: { runId, step: filter.step, label: filter.label },
    orderBy: [{ step: "asc" }, { itemId: "asc" }],
    take: 5000,
  });
}
