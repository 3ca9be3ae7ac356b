/**
 * The Step row of a stepCommitted event and the run's counters at that commit. The step record is read
 * through its schema (lib/contracts/step-record.ts): a record that does not parse stops the write with
 * an error naming the step and the field, instead of storing zeros.
 */
import { ARTIFACT } from "../contracts/artifacts";
import type { EngineEventOf } from "../contracts/events";
import { StepRecordSchema, type StepRecordFields } from "../contracts/step-record";
import type { DbTx } from "./client";
import { keptBest, putArtifact } from "./event-rows";

/** The step's record, parsed; throws naming the step and the first bad field. */
export function stepRecordOf(e: { step: number; record: unknown }): StepRecordFields {
  const parsed = StepRecordSchema.safeParse(e.record);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const field = first ? first.path.map(String).join(".") : "record";
  throw new Error(`stepCommitted of step ${e.step}: record field ${field}: ${first?.message ?? "invalid"}`);
}

export async function commitStepRows(tx: DbTx, runId: string, e: EngineEventOf<"stepCommitted">): Promise<void> {
  const r = stepRecordOf(e);
  // Counts a step did not reach (a skipped reflection proposes nothing) are absent from its record.
  const data = {
    epoch: e.epoch,
    stepInEpoch: r.step_in_epoch,
    action: e.action,
    budget: r.edit_budget ?? null,
    nFailurePatches: r.n_failure_patches ?? 0,
    nSuccessPatches: r.n_success_patches ?? 0,
    nMerged: r.n_edits_merged ?? 0,
    nRanked: r.n_edits_ranked ?? 0,
    nApplied: r.edit_apply_summary?.applied ?? 0,
    nSkipped: r.edit_apply_summary?.skipped ?? 0,
    trainHard: r.rollout_hard,
    trainSoft: r.rollout_soft,
    selectionHard: r.selection_hard,
    selectionSoft: r.selection_soft,
    candidateScore: r.candidate_gate_score,
    currentScore: e.currentScore,
    bestScore: e.bestScore,
    candidateHash: r.candidate_hash ?? null,
    recordJson: JSON.stringify(e.record),
  };
  await tx.step.upsert({
    where: { runId_step: { runId, step: e.step } },
    create: { runId, step: e.step, ...data },
    update: data,
  });
  // The run's totals come from the backends' usage rows (llm-usage.ts), which count every call, also
  // those made between commits; the engine's per-stage counts stay in the step record (history.json's view).
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
