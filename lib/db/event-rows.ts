/**
 * The derived rows an engine event writes (evaluation results, edits, skill versions, export artifacts)
 * and the run's best-skill columns. Each write is a replace or an upsert keyed by step, so an event
 * replayed after a crash changes nothing.
 */
import { randomUUID } from "node:crypto";
import { type ArtifactName } from "../contracts/artifacts";
import { parseOrigin, type BestMeasuredBy } from "../contracts/best";
import type { EditView, EvalItem } from "../contracts/events";
import type { DbTx } from "./client";

export async function replaceEvals(
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

export async function replaceEdits(tx: DbTx, runId: string, step: number, stage: string, edits: EditView[]) {
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

export async function upsertSkill(
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
export async function putArtifact(
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
export function bestOf(
  origin: string,
  content: string,
  _hash: string,
  measuredBy: BestMeasuredBy = measuredByOf(origin),
) {
  return { bestOrigin: origin, bestMeasuredBy: measuredBy, bestBytes: Buffer.byteLength(content, "utf8") };
}

/** At a step commit: a best that did not change keeps where it was measured. */
export async function keptBest(tx: DbTx, runId: string, origin: string, content: string, hash: string) {
  const run = await tx.run.findUniqueOrThrow({
    where: { id: runId },
    select: { bestOrigin: true, bestMeasuredBy: true, bestSkillHash: true },
  });
  if (run.bestOrigin === origin && run.bestSkillHash === hash && run.bestMeasuredBy)
    return bestOf(origin, content, hash, run.bestMeasuredBy as BestMeasuredBy);
  return bestOf(origin, content, hash);
}
