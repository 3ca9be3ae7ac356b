/**
 * Public surface of the training engine. Everything here is pure: the caller injects model clients, the
 * environment, the checkpoint store, the event sink and the clock through `EngineDeps`.
 */
/** How a model-call error ends a run: "fail" (unrecoverable) or "pause" (budget spent; resumable). */
export { stopRunOf } from "./ports";
export type {
  CheckpointStore,
  CompletionRequest,
  Environment,
  EventSink,
  ModelClient,
  RolloutBatch,
  RolloutPhase,
  RolloutRunner,
} from "./ports";
/** One item through an environment, a throw recorded as an error row (the fan-out's child jobs use it). */
export { rolloutOrErrorRow } from "./phases/rollout";
export type { Item, Splits, Trajectory } from "./types";
/** Maps over items with at most `limit` in flight, results in input order. */
export { mapPool } from "./usage";
/** Runs or resumes a training run; resolves to summary.json. */
export { runTraining } from "./trainer";
export { planRun } from "./run-plan";
/** Scores one skill on a split without optimizer calls (spec §18). */
export { runEvalOnly, type EvalSplit } from "./eval-only";
/** Errors a caller distinguishes: a cancelled run (resumable) and a run-level failure with a user message. */
export { EngineError, RunCancelledError } from "./context";
/** Human review at the gate: a run whose gate waits for a reviewer stops with this error. */
export { ReviewPendingError } from "./gate-review";
/** An in-memory store for tests and throw-away evaluations. */
export { MemoryCheckpointStore } from "./memory-store";
/** First 16 hex characters of SHA-256: the skill identity used by the selection cache. */
export { skillHash } from "./scoring";
/** Python-compatible `random.Random` (same seeds, same shuffles as the original). */
