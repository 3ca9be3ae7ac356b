/**
 * Transfer matrix cells: created for a finished run (its best skill and its seed × each target), claimed
 * by the worker (queued → running, one winner), finished with scores and usage, or failed with a reason.
 */
import { createHash, randomUUID } from "node:crypto";
import { TRANSFER_SKILLS, type TransferCellView, type TransferSkill, type TransferTarget } from "../contracts/transfer";
import { AppError } from "../errors";
import { getDb, type Db } from "./client";
import { getBestSkill } from "./export";
import { getRun } from "./runs";

type Opts = { db?: Db };
type CellKey = { runId: string; skill: TransferSkill; targetBackend: string; targetModel: string };
const hash16 = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 16);

/** The skill text a cell evaluates. */
export async function transferSkillText(runId: string, skill: TransferSkill, { db = getDb() }: Opts = {}) {
  return skill === "seed" ? (await getRun(runId, { db })).seedSkill : getBestSkill(runId, { db });
}

/**
 * Cells for each target × (seed, best). A target already in the matrix keeps its cells, except failed
 * ones, which are queued again. Returns the ids to enqueue. Only a succeeded run has a matrix.
 */
export async function createTransferCells(
  runId: string,
  targets: readonly TransferTarget[],
  {
    db = getDb(),
    beforeQueue,
  }: Opts & {
    /** Called with the number of cells about to be (re)queued, before any write; throwing refuses the request. */
    beforeQueue?: (cells: number) => void | Promise<void>;
  } = {},
): Promise<string[]> {
  const run = await getRun(runId, { db });
  if (run.status !== "succeeded") {
    throw new AppError("CONFLICT", `run ${runId} is ${run.status}`, {
      userMessage: `A transfer matrix needs a finished run (this one is ${run.status}).`,
    });
  }
  const texts = { seed: run.seedSkill, best: await getBestSkill(runId, { db }) };
  const todo: { key: CellKey; id: string }[] = [];
  for (const t of targets) {
    for (const skill of TRANSFER_SKILLS) {
      const key = { runId, skill, targetBackend: t.backend, targetModel: t.model };
      const old = await db.transferCell.findUnique({
        where: { runId_skill_targetBackend_targetModel: key },
      });
      if (old && old.status !== "failed") continue;
      todo.push({ key, id: old?.id ?? randomUUID() });
    }
  }
  await beforeQueue?.(todo.length);
  for (const { key, id } of todo) {
    await db.transferCell.upsert({
      where: { runId_skill_targetBackend_targetModel: key },
      create: { id, ...key, skillHash: hash16(texts[key.skill]) },
      update: { status: "queued", errorMessage: null, finishedAt: null },
    });
  }
  return todo.map((t) => t.id);
}

export async function claimTransferCell(id: string, { db = getDb() }: Opts = {}) {
  const res = await db.transferCell.updateMany({ where: { id, status: "queued" }, data: { status: "running" } });
  return res.count === 1 ? db.transferCell.findUniqueOrThrow({ where: { id } }) : null;
}

export interface TransferResult {
  hard: number;
  soft: number;
  nItems: number;
  nUnanswered: number;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number | null;
}

export async function finishTransferCell(id: string, r: TransferResult, { db = getDb() }: Opts = {}) {
  await db.transferCell.update({ where: { id }, data: { ...r, status: "succeeded", finishedAt: new Date() } });
}

export async function failTransferCell(id: string, message: string, { db = getDb() }: Opts = {}) {
  await db.transferCell.updateMany({
    where: { id, status: { in: ["queued", "running"] } },
    data: { status: "failed", errorMessage: message.slice(0, 1000), finishedAt: new Date() },
  });
}

/**
 * Queues one failed cell of the run again (the Retry button); returns its id to enqueue. Refused when the
 * cell is not the run's (404) or not failed (409: a queued, running or finished cell is left alone).
 */
export async function retryTransferCell(runId: string, cellId: string, { db = getDb() }: Opts = {}): Promise<string> {
  await getRun(runId, { db });
  const res = await db.transferCell.updateMany({
    where: { id: cellId, runId, status: "failed" },
    data: { status: "queued", errorMessage: null, finishedAt: null },
  });
  if (res.count === 1) return cellId;
  const cell = await db.transferCell.findFirst({ where: { id: cellId, runId }, select: { status: true } });
  if (!cell)
    throw new AppError("NOT_FOUND", `transfer cell ${cellId} of run ${runId} not found`, {
      userMessage: "This transfer cell does not exist.",
      field: "cellId",
    });
  throw new AppError("CONFLICT", `transfer cell ${cellId} is ${cell.status}`, {
    userMessage: `Only a failed cell can be retried (this one is ${cell.status}).`,
    field: "cellId",
  });
}

/** Cells left queued (their add failed, or Redis lost them): the worker enqueues them again at start. */
export async function listQueuedTransferCellIds({ db = getDb() }: Opts = {}): Promise<string[]> {
  return (await db.transferCell.findMany({ where: { status: "queued" }, select: { id: true } })).map((c) => c.id);
}

export async function listTransferCells(runId: string, { db = getDb() }: Opts = {}): Promise<TransferCellView[]> {
  await getRun(runId, { db });
  const rows = await db.transferCell.findMany({ where: { runId }, orderBy: { createdAt: "asc" } });
  return rows.map((c) => ({
    id: c.id,
    skill: c.skill as TransferSkill,
    targetBackend: c.targetBackend,
    targetModel: c.targetModel,
    status: c.status as TransferCellView["status"],
    hard: c.hard,
    soft: c.soft,
    nItems: c.nItems,
    nUnanswered: c.nUnanswered,
    calls: c.calls,
    promptTokens: c.promptTokens,
    completionTokens: c.completionTokens,
    costUsd: c.costUsd,
    errorMessage: c.errorMessage,
  }));
}
