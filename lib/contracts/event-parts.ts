/**
 * The parts engine events are made of: per-item evaluation results, edits, apply reports, token counts,
 * gate evidence, human reviews and proposal sources. The events themselves are in events.ts.
 */
import { z } from "zod";

export const EvalItemSchema = z.object({
  id: z.string(),
  hard: z.number(),
  soft: z.number(),
  /** Only `ok` rows are answers; the others are never scored (error, timeout, cut off by the token limit). */
  status: z.enum(["ok", "error", "timeout", "truncated"]),
  prediction: z.string().optional(),
  reference: z.string().optional(),
  failReason: z.string().optional(),
  taskType: z.string().optional(),
  latencyMs: z.number().optional(),
  promptTokens: z.number().optional(),
  completionTokens: z.number().optional(),
  /** The rendered conversation, cut to a bounded size. */
  trajectory: z.string().optional(),
});
export type EvalItem = z.infer<typeof EvalItemSchema>;

export const EditViewSchema = z.object({
  origin: z.enum(["failure", "success", "mixed"]),
  op: z.string(),
  target: z.string().optional(),
  content: z.string().optional(),
  rationale: z.string().optional(),
  support: z.number().optional(),
  mergeLevel: z.number().optional(),
});
export type EditView = z.infer<typeof EditViewSchema>;

export const EditReportRowSchema = z.object({
  index: z.number(),
  op: z.string(),
  target: z.string(),
  content_preview: z.string(),
  status: z.string(),
  error: z.string().optional(),
});

const TokenStatsSchema = z.object({
  calls: z.number(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
});
export const TokensByStageSchema = z.record(z.string(), TokenStatsSchema);

/** Evidence behind a gate decision: paired difference, bootstrap interval, sign-test p-value. */
export const GateEvidenceSchema = z.object({
  nPaired: z.number().int().nonnegative(),
  meanDiff: z.number(),
  ci95: z.tuple([z.number(), z.number()]),
  resamples: z.number().int().positive(),
  improved: z.number().int().nonnegative(),
  regressed: z.number().int().nonnegative(),
  pValue: z.number().min(0).max(1),
  minDetectableDiff: z.number().nullable(),
  significant: z.boolean(),
});

/** A human review's outcome at a gate (step record `review`, gateDecided `review`). */
export const GateReviewSchema = z.object({
  decision: z.enum(["accept", "reject", "edit", "gate"]),
  /** reviewer: a person decided; timeout: an `ask` review expired and its fallback applied. */
  source: z.enum(["reviewer", "timeout"]),
  /** The automatic gate's action, and the one taken. */
  automatic: z.string(),
  action: z.string(),
  note: z.string(),
  author: z.string(),
  edited_hash: z.string().optional(),
  edited_score: z.number().optional(),
});
export type GateReviewOutcome = z.infer<typeof GateReviewSchema>;
/** Where a proposed edit came from: the accumulation batch, the analyst minibatch and the items it read. */
export const ProposalSourceSchema = z.object({
  batch: z.number().int().nonnegative(),
  kind: z.enum(["failure", "success"]),
  minibatch: z.number().int().nonnegative(),
  itemIds: z.array(z.string()),
  /** How many edits of the event's `edits` list (in order) this analyst proposed. */
  nEdits: z.number().int().nonnegative(),
});
export type ProposalSource = z.infer<typeof ProposalSourceSchema>;
