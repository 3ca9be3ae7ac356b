/**
 * The engine's ports: everything impure reaches the training loop through these interfaces, passed in
 * one `EngineDeps` object. The worker and the CLI build real implementations; tests pass fakes.
 */
import type { EngineEvent } from "../contracts/events";
import type { RunConfig } from "../contracts/run-config";
import type { GateEvidence } from "./gate-evidence";
import type { GateAction, Item, Splits, Trajectory } from "./types";

export type Role = "optimizer" | "target";

/** One chat message. Content is text, or text plus images for multimodal targets. */
export type ChatMessage = {
  role: "user" | "assistant";
  content: string | ChatContentPart[];
};
export type ChatContentPart =
  | { type: "text"; text: string }
  | {
      type: "image";
      mediaType: string;
      dataBase64: string;
      /** OpenAI's image resolution hint; absent (or "auto") leaves the provider default. */
      detail?: "auto" | "low" | "high";
      /** The image's file name, when it came from a file (agent CLIs see it as the attachment's name). */
      name?: string;
    };

export interface CompletionRequest {
  role: Role;
  /** Accounting stage: rollout, analyst, merge, ranking, lr_autonomous, rewrite, slow_update, meta_skill, appendix_consolidate. */
  stage: string;
  system: string;
  messages: ChatMessage[];
  maxTokens: number;
  reasoningEffort?: string | null;
  signal?: AbortSignal;
}

export interface CompletionResult {
  text: string;
  usage: { promptTokens: number; completionTokens: number };
  latencyMs: number;
  cached: boolean;
  /**
   * The provider stopped the answer at the token limit (`finish_reason: length`, `stop_reason:
   * max_tokens`, a Responses answer incomplete for `max_output_tokens`). Every backend that has a token
   * limit sets it; absent means false. A cut-off answer is not an answer: target calls retry it once with a
   * larger limit, then record the item as `truncated`.
   */
  truncated?: boolean;
}

/**
 * How a model-call error may end the run instead of degrading to a fallback: "fail" for errors no retry
 * can fix (bad credentials, unknown model, exhausted quota), "pause" when the run's budget is spent (it can
 * be resumed with a larger one). Backends set `stopRun` on such errors; everything else is a per-call
 * failure the engine absorbs (fallback for the optimizer, an error trajectory for the target).
 */
export type StopRun = "fail" | "pause";

export function stopRunOf(err: unknown): StopRun | null {
  const v = (err as { stopRun?: unknown } | null)?.stopRun;
  return v === "fail" || v === "pause" ? v : null;
}

/** Counters of one role's model calls at one stage (or in total), kept by the backend's policy layer. */
export interface UsageCounters {
  /** Requests answered, by the provider or by the response cache. */
  calls: number;
  /** Tokens the provider billed (cache hits add none). */
  promptTokens: number;
  completionTokens: number;
  /** Summed wall time of the answered provider calls, in milliseconds. */
  latencyMs: number;
  /** Requests that finally failed, by error kind (rate_limited, transient, fatal, aborted). */
  errors: Record<string, number>;
  /** Extra attempts made after retryable errors. */
  retries: number;
  cacheHits: number;
  /** USD spent; null when the model's price is unknown (an unknown price is never counted as 0). */
  costUsd: number | null;
  /** USD the cache hits did not spend; null when the price is unknown. */
  costSavedUsd: number | null;
}

/** Usage of one client (one role of a run): per accounting stage and in total. */
export interface BackendStats {
  backend: string;
  model: string;
  byStage: Record<string, UsageCounters>;
  total: UsageCounters;
}

/** A chat model for one role. Implementations classify and retry their own transport errors. */
export interface ModelClient {
  readonly backend: string;
  readonly model: string;
  complete(req: CompletionRequest): Promise<CompletionResult>;
  /** Calls, tokens, latency, errors, retries, cache hits and cost so far, when the client counts them. */
  stats?(): BackendStats;
}

export type RolloutPhase = "train" | "selection" | "test" | "longitudinal";

export interface RolloutInput {
  item: Item;
  skill: string;
  client: ModelClient;
  phase: RolloutPhase;
  /** The batch seed (train) or the eval seed; envs use it for per-batch choice shuffles and the like. */
  seed: number;
  /** True only for training rollouts (some envs give extra feedback then). */
  useEvalFeedback: boolean;
  signal?: AbortSignal;
}

/**
 * A benchmark. `rollout` must not throw for a bad item or a model failure: it returns a trajectory with
 * status error/timeout/truncated and a reason. A throw is treated the same way by the engine, as a last resort.
 */
export interface Environment {
  readonly name: string;
  taskTypes(): string[];
  /** Optional per-batch preparation (LiveMath reshuffles answer choices with the batch seed). */
  prepareBatch?(items: Item[], seed: number): Item[];
  rollout(input: RolloutInput): Promise<Trajectory>;
  /** Failure taxonomy given to the error analyst (benchmark-specific categories). */
  failureTaxonomy(): string[];
  /**
   * What the analysts are told about this benchmark beyond the category names: a one-line definition per
   * failure type, the task types with descriptions, and the benchmark's own analysis guidance.
   */
  analystBrief?(): AnalystBrief;
}

/** A benchmark's briefing for the failure and success analysts (the original's per-benchmark prompts). */
export interface AnalystBrief {
  /** Every failure type of `failureTaxonomy()`, each with a one-line definition. */
  failureTypes: ReadonlyArray<{ name: string; definition: string }>;
  /** Task types worth describing to the analyst (ALFWorld's six), else empty. */
  taskTypes: ReadonlyArray<{ name: string; description: string }>;
  /** Benchmark-specific guidance for the failure analyst. */
  failureGuidance: readonly string[];
  /** Benchmark-specific guidance for the success analyst. */
  successGuidance: readonly string[];
}

/** A rollout batch handed to a `RolloutRunner`: the items of one store folder that are not stored yet. */
export interface RolloutBatch {
  /** Store folder of the rollout (`steps/step_0001/rollout`, `steps/step_0001/selection_candidate` …): one batch per folder in a run. */
  dir: string;
  items: readonly Item[];
  skill: string;
  phase: RolloutPhase;
  seed: number;
  useEvalFeedback: boolean;
  signal?: AbortSignal;
}

/**
 * Runs rollout batches outside the engine's own pool (the worker's fan-out of a run's items to child jobs
 * on every worker process). It resolves with exactly one trajectory per item, in any order; the engine
 * merges them in item order, stores them and counts their usage. A runner keeps results it already has
 * (a resumed batch pays only for the items it never finished). Absent: items run in this process.
 */
export interface RolloutRunner {
  run(batch: RolloutBatch): Promise<Trajectory[]>;
}

/** Wall clock in milliseconds; only used for timings, never for decisions. */
export interface Clock {
  now(): number;
}

/**
 * Where the engine keeps every completed result it may need again, under path-like keys that mirror
 * the original's output layout (`steps/step_0001/merged_patch.json`, `best_skill.md` …). A resumed run
 * reads the same keys back and re-pays nothing. `.jsonl` keys hold appended trajectory rows. JSON text
 * stored with `putText` reads back with `getJson`. A read sees every write issued before it.
 */
export interface CheckpointStore {
  getJson<T = unknown>(key: string): Promise<T | undefined>;
  putJson(key: string, value: unknown): Promise<void>;
  getText(key: string): Promise<string | undefined>;
  putText(key: string, text: string): Promise<void>;
  readRows(key: string): Promise<Trajectory[]>;
  appendRows(key: string, rows: Trajectory[]): Promise<void>;
  appendLine(key: string, value: unknown): Promise<void>;
  /**
   * For a store that writes behind (its writes resolve before they land): resolves once every write
   * issued so far has landed, and rejects with the first write that failed. The engine calls it before
   * a run or an evaluation returns or throws, so the caller finds every file in place.
   */
  flush?(): Promise<void>;
}

/** Receives typed engine events in order; the worker persists them, the CLI prints progress. */
export interface EventSink {
  emit(event: EngineEvent): void | Promise<void>;
}

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/**
 * Human review at the gate (`evaluation.human_review`). The engine asks with everything a reviewer needs to
 * decide; the port answers with a reviewer's decision, says the `ask` wait has expired (only the port knows
 * the time), or says nothing is in yet — the run then stops at this gate and resumes from its checkpoint
 * once an answer is there. The worker keeps requests and answers in the database; tests pass fakes.
 */
export interface GateReviewer {
  answer(req: GateReviewRequest): Promise<GateReviewAnswer>;
}

export interface GateReviewRequest {
  step: number;
  mode: "ask" | "required";
  timeoutS: number;
  currentSkill: string;
  candidate: string;
  candidateHash: string;
  /** What the gate decided on its own. */
  automatic: GateAction;
  candidateScore: number;
  currentScore: number;
  bestScore: number;
  /** Paired statistics of the candidate against the current skill (null when per-item results are unknown). */
  evidence: GateEvidence | null;
}

export type ReviewDecision = "accept" | "reject" | "edit";

export type GateReviewAnswer =
  | { kind: "decided"; decision: ReviewDecision; note: string; author: string; editedSkill?: string }
  | { kind: "expired" }
  | { kind: "pending" };

export interface EngineDeps {
  config: RunConfig;
  splits: Splits;
  /** The seed skill document (the preset's initial.md or the user's text). */
  initialSkill: string;
  env: Environment;
  optimizer: ModelClient;
  target: ModelClient;
  store: CheckpointStore;
  events: EventSink;
  clock: Clock;
  logger?: Logger;
  signal?: AbortSignal;
  /** Required when `evaluation.human_review` is not off. */
  reviewer?: GateReviewer;
  /** Where rollout batches run when not in this process (fan-out); early-stopped evaluations stay here. */
  rollouts?: RolloutRunner;
}
