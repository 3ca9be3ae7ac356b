/**
 * Data shapes shared by every phase of the training loop. Field names of persisted records follow the
 * original's snake_case file formats (history.json, step_record.json …) so an output folder written by
 * the CLI reads like the original's; in-memory TypeScript values are camelCase.
 */

/** One task of a benchmark split. Ids are compared as strings everywhere. */
export type Item = { id: string } & Record<string, unknown>;

export type Splits = { train: Item[]; val: Item[]; test: Item[] };

/**
 * `ok` is an answer (right or wrong); the others are not answers: the call failed after its retries
 * (`error`), ran out of time (`timeout`) or was cut off by the token limit even after the one retry with
 * a larger limit (`truncated`).
 */
export type TrajectoryStatus = "ok" | "error" | "timeout" | "truncated";

/** One entry of a rendered conversation (see spec §7.2 for how each shape renders). */
export type ConversationEntry = string | Record<string, unknown>;

/**
 * A scored rollout of one item. `status` separates rows that are not answers (error, timeout, truncated)
 * from wrong answers: such rows carry 0 but are never scored — every mean and every gate comparison
 * leaves them out and counts them apart (a deliberate deviation).
 */
export interface Trajectory {
  id: string;
  hard: number;
  soft: number;
  status: TrajectoryStatus;
  prediction?: string;
  reference?: string;
  failReason?: string;
  conversation: ConversationEntry[];
  taskType?: string;
  taskDescription?: string;
  question?: string;
  /** Hidden reference shown only to the analyst (never to the target). */
  referenceText?: string;
  targetSystemPrompt?: string;
  targetUserPrompt?: string;
  nTurns?: number;
  latencyMs?: number;
  promptTokens?: number;
  completionTokens?: number;
  /**
   * Calls a benchmark made with the optimizer model to grade this row (the custom benchmark's LLM judge).
   * The engine counts them under stage "judge", live and when the row is read back on resume.
   */
  judgeUsage?: { calls: number; promptTokens: number; completionTokens: number };
  extras?: Record<string, unknown>;
}

export type Score = { hard: number; soft: number };

export type UpdateMode = "patch" | "rewrite_from_suggestions" | "full_rewrite_minibatch";
export type GateMetric = "hard" | "soft" | "mixed";
export type SchedulerKind = "constant" | "linear" | "cosine" | "autonomous";
export type LrControlMode = "fixed" | "autonomous" | "none";
export type PairPolicy = "mixed" | "changed" | "unchanged";

export type GateAction = "accept_new_best" | "accept" | "reject" | "force_accept";
/** `skip_errors`: too many selection items were not answered to compare the candidate with the current skill. */
export type StepAction = GateAction | "skip_no_patches" | "skip_no_rewrite" | "skip_errors";

/** An update item: an edit (patch mode), a revise suggestion (rewrite) or a skill candidate (full rewrite). */
export type UpdateItem = Record<string, unknown>;

/** A patch as analysts and merges produce it: reasoning plus a payload list under the mode's key. */
export type Patch = Record<string, unknown> & { reasoning?: unknown };

/** Raw analyst output (spec §7.2): `{ batch_size, failure_summary | success_patterns, patch, … }`. */
export type AnalystResult = Record<string, unknown> & {
  source_type: "failure" | "success";
  patch: Patch;
};

export type EditApplyStatus =
  | "applied_append"
  | "applied_append_before_protected_region"
  | "applied_insert_after"
  | "applied_insert_after_fallback_append"
  | "applied_insert_after_fallback_before_protected_region"
  | "applied_replace"
  | "applied_delete"
  | "skipped_protected_region"
  | "skipped_replace_missing_target"
  | "skipped_replace_target_not_found"
  | "skipped_delete_missing_target"
  | "skipped_delete_target_not_found"
  | "skipped_unknown_op"
  | "error";

export interface EditReportRow {
  index: number;
  op: string;
  target: string;
  content_preview: string;
  status: EditApplyStatus;
  error?: string;
}

export type TokenStats = { calls: number; prompt_tokens: number; completion_tokens: number };
export type TokensByStage = Record<string, TokenStats>;

/** A step record as stored in history.json / step_record.json (spec §13.1). */
export type StepRecord = Record<string, unknown> & {
  step: number;
  epoch: number;
  step_in_epoch: number;
  action?: StepAction;
};
