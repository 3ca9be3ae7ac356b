/**
 * The fields of a step record (history.json / step_record.json, the `record` of a stepCommitted event)
 * that the step rows are built from. Other keys pass through untouched. A score the engine could not
 * compute (every item unanswered) is NaN in memory and null once stored: both read as null, never 0.
 */
import { z } from "zod";

const int = z.number().int().nonnegative();
const scoreOrNull = z
  .union([z.number(), z.nan(), z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null || Number.isNaN(v) ? null : v));

export const StepRecordSchema = z.looseObject({
  step: z.number().int(),
  epoch: z.number().int(),
  step_in_epoch: z.number().int(),
  edit_budget: z.number().int().nullable().optional(),
  n_failure_patches: int.optional(),
  n_success_patches: int.optional(),
  n_edits_merged: int.optional(),
  n_edits_ranked: int.optional(),
  edit_apply_summary: z.object({ total: int, applied: int, skipped: int, errors: int }).partial().optional(),
  rollout_hard: scoreOrNull,
  rollout_soft: scoreOrNull,
  selection_hard: scoreOrNull,
  selection_soft: scoreOrNull,
  candidate_gate_score: scoreOrNull,
  candidate_hash: z.string().nullable().optional(),
  n_appendix_notes_added: int.optional(),
  n_appendix_notes_consolidated: int.optional(),
});
export type StepRecordFields = z.output<typeof StepRecordSchema>;
