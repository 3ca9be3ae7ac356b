/**
 * The run configuration: the original's six sections (`model`, `train`, `gradient`, `optimizer`,
 * `evaluation`, `env`) plus `budget`, every key with its effective default (the original's base YAML;
 * spec/engine.md §2.5). One schema serves the YAML loader, the HTTP API, the worker and the browser form.
 * Enumerations accept the original's aliases and are normalised to one canonical value.
 */
import { z } from "zod";

const int = (min: number) => z.number().int().min(min);
const num = z.number();
/**
 * An integer with an upper bound no real run reaches: a typo like `num_epochs=1e9` (3·10⁹ steps) is refused
 * with the bound in the message instead of being queued.
 */
const capped = (min: number, max: number) => int(min).max(max, `at most ${max}`);

/** Upper bounds of the run's sizes (shown in messages; planRun also bounds the product, the total steps). */
export const LIMITS = {
  epochs: 1000,
  stepsPerEpoch: 100_000,
  totalSteps: 100_000,
  batchSize: 10_000,
  accumulation: 1000,
  items: 1_000_000,
  workers: 256,
  turns: 1000,
  tokens: 1_000_000,
  editBudget: 1000,
} as const;

/** A string enum that accepts aliases (case-insensitive, trimmed) and yields the canonical value. */
export function aliasEnum<T extends string>(canonical: readonly T[], aliases: Record<string, T>) {
  const table = new Map<string, T>();
  for (const c of canonical) table.set(c, c);
  for (const [a, c] of Object.entries(aliases)) table.set(a, c);
  const listed = [...table.keys()].join(" | ");
  return z.string().transform((raw, ctx) => {
    const hit = table.get(raw.trim().toLowerCase());
    if (hit === undefined) {
      ctx.addIssue({ code: "custom", message: `expected one of ${listed}, got '${raw}'` });
      return z.NEVER;
    }
    return hit;
  });
}

export const UPDATE_MODES = ["patch", "rewrite_from_suggestions", "full_rewrite_minibatch"] as const;
export const UpdateModeSchema = aliasEnum(UPDATE_MODES, {
  edits: "patch",
  rewrite: "rewrite_from_suggestions",
  suggestions: "rewrite_from_suggestions",
  rewrite_suggestions: "rewrite_from_suggestions",
  full_rewrite: "full_rewrite_minibatch",
  minibatch_full_rewrite: "full_rewrite_minibatch",
  skill_rewrite_minibatch: "full_rewrite_minibatch",
});

export const LR_CONTROL_MODES = ["fixed", "autonomous", "none"] as const;
export const LrControlModeSchema = aliasEnum(LR_CONTROL_MODES, {
  manual: "fixed",
  scheduler: "fixed",
  scheduled: "fixed",
  auto: "autonomous",
  optimizer: "autonomous",
  off: "none",
  no_lr: "none",
});

export const PAIR_POLICIES = ["mixed", "changed", "unchanged"] as const;
export const PairPolicySchema = aliasEnum(PAIR_POLICIES, {
  random: "mixed",
  all: "mixed",
  change: "changed",
  delta: "changed",
  "10_01": "changed",
  "01_10": "changed",
  stable: "unchanged",
  same: "unchanged",
  "00_11": "unchanged",
});

export const SCHEDULERS = ["constant", "linear", "cosine", "autonomous"] as const;
export const SchedulerSchema = aliasEnum(SCHEDULERS, {});
export const GATE_METRICS = ["hard", "soft", "mixed"] as const;
export const GateMetricSchema = aliasEnum(GATE_METRICS, {});
export const REFLECT_MODES = ["deep", "shallow"] as const;
export const SPLIT_MODES = ["sample", "split_dir", "ratio"] as const;

export const ModelSectionSchema = z
  .object({
    backend: z.string().default("openai"),
    optimizer: z.string().default("gpt-5.5"),
    target: z.string().default("gpt-5.5"),
    optimizer_backend: z.string().default(""),
    target_backend: z.string().default(""),
    reasoning_effort: z.string().default("medium"),
    rewrite_reasoning_effort: z.string().default(""),
    rewrite_max_completion_tokens: capped(1, LIMITS.tokens).default(64000),
    codex_trace_to_optimizer: z.boolean().default(true),
    /** Simulated model: probability that a guided answer still slips (seeded, deterministic). */
    sim_slip_rate: num.min(0).max(1).default(0.04),
    /** Simulated optimizer: probability that an analyst adds one unhelpful edit. */
    sim_unhelpful_rate: num.min(0).max(1).default(0.25),
    /** Simulated optimizer: probability of an unparseable answer (exercises the fallbacks). */
    sim_malformed_rate: num.min(0).max(1).default(0),
    /** Simulated model: added latency per call in milliseconds. */
    sim_latency_ms: capped(0, 600_000).default(0),
    /** Simulated target: probability that an answer is cut off by the token limit (drawn per call and limit). */
    sim_truncate_rate: num.min(0).max(1).default(0),
  })
  .catchall(z.unknown()); // transport keys of the real backends are checked by the loader against lib/backends

export const TrainSectionSchema = z.strictObject({
  num_epochs: capped(1, LIMITS.epochs).default(4),
  train_size: capped(0, LIMITS.items).default(0),
  steps_per_epoch: capped(0, LIMITS.stepsPerEpoch).nullable().default(null),
  batch_size: capped(1, LIMITS.batchSize).default(40),
  accumulation: capped(1, LIMITS.accumulation).default(1),
  seed: z.number().int().default(42),
});

export const GradientSectionSchema = z.strictObject({
  minibatch_size: capped(1, LIMITS.batchSize).default(8),
  merge_batch_size: capped(2, LIMITS.batchSize).default(8),
  analyst_workers: capped(1, LIMITS.workers).default(16),
  failure_only: z.boolean().default(false),
  /** deep = analysts read whole trajectories (the original); shallow = task, prediction, reference, reason. */
  reflect_mode: z.enum(REFLECT_MODES).default("deep"),
});

export const OptimizerSectionSchema = z.strictObject({
  learning_rate: capped(0, LIMITS.editBudget).default(4),
  min_learning_rate: capped(0, LIMITS.editBudget).default(2),
  meta_learning_rate: num.nullable().default(null),
  lr_scheduler: SchedulerSchema.default("cosine"),
  lr_control_mode: LrControlModeSchema.default("fixed"),
  skill_update_mode: UpdateModeSchema.default("patch"),
  use_slow_update: z.boolean().default(true),
  slow_update_samples: capped(1, LIMITS.batchSize).default(20),
  slow_update_gate_with_selection: z.boolean().default(false),
  longitudinal_pair_policy: PairPolicySchema.default("mixed"),
  use_meta_skill: z.boolean().default(true),
  use_skill_aware_reflection: z.boolean().default(false),
  skill_aware_appendix_source: z.enum(["both", "failure_only"]).default("both"),
  skill_aware_consolidate_threshold: capped(0, LIMITS.items).default(0),
});

export const HUMAN_REVIEW_MODES = ["off", "ask", "required"] as const;
export const HUMAN_REVIEW_FALLBACKS = ["accept", "reject", "gate"] as const;

export const EvaluationSectionSchema = z.strictObject({
  use_gate: z.boolean().default(true),
  gate_metric: GateMetricSchema.default("hard"),
  gate_mixed_weight: num.min(0).max(1).default(0.5),
  use_semantic_density: z.boolean().default(false),
  semantic_density_weight: num.default(0.05),
  leading_words: z
    .union([z.array(z.string()), z.string()])
    .nullable()
    .default(null),
  sel_env_num: capped(0, LIMITS.items).default(0),
  test_env_num: capped(0, LIMITS.items).default(0),
  eval_test: z.boolean().default(true),
  /** 0 = off; otherwise stop after N consecutive rejected candidates. */
  gate_patience: capped(0, LIMITS.totalSteps).default(0),
  /**
   * Largest share of selection items that may go unanswered (error, timeout, truncated on either skill)
   * for the gate still to decide; above it the step is skipped (`skip_errors`).
   */
  max_error_share: num.min(0).max(1).default(0.2),
  /**
   * strict: accept when the candidate scores strictly higher (the original's rule). significant: also
   * require the paired improvement to be significant (exact sign test, p < 0.05; lib/engine/gate-evidence.ts).
   */
  gate_rule: z.enum(["strict", "significant"]).default("strict"),
  /**
   * Stop scoring a candidate on the selection split once no outcome of the remaining items can change the
   * gate's decision (only a reject is decided early; hard metric, gated, no density bonus). The step
   * records the decision as exact and the partial score as a bound; it is never cached as a full score.
   */
  early_decision: z.boolean().default(false),
  /**
   * Human review at the gate (README "Human review at the gate"): off; ask = the run pauses for a reviewer
   * and, after `human_review_timeout_s`, takes `human_review_fallback`; required = waits for a reviewer.
   */
  human_review: z.enum(HUMAN_REVIEW_MODES).default("off"),
  human_review_timeout_s: capped(1, 30 * 86_400).default(3_600),
  /** What an unanswered `ask` review becomes: accept, reject, or gate (the automatic decision). */
  human_review_fallback: z.enum(HUMAN_REVIEW_FALLBACKS).default("gate"),
  /**
   * A/A noise floor: re-score the current skill this many times on the selection split once per epoch (at
   * its start) and show the spread on the selection chart. 0 = off (no extra calls).
   */
  noise_floor_repeats: capped(0, 20).default(0),
});

export const EnvSectionSchema = z
  .object({
    name: z.string().default(""),
    skill_init: z.string().default(""),
    split_mode: z.enum(SPLIT_MODES).default("ratio"),
    split_ratio: z
      .string()
      .regex(/^\s*[1-9]\d*\s*:\s*[1-9]\d*\s*:\s*[1-9]\d*\s*$/, "expected three positive integers like 2:1:7")
      .default("2:1:7"),
    split_seed: z.number().int().default(42),
    split_dir: z.string().default(""),
    data_path: z.string().default(""),
    split_output_dir: z.string().default(""),
    exec_timeout: num.min(0).max(86_400, "at most 86400 (one day)").default(120),
    out_root: z.string().default(""),
    limit: capped(0, LIMITS.items).default(0),
    workers: capped(1, LIMITS.workers).default(16),
    max_turns: capped(1, LIMITS.turns).default(1),
    max_completion_tokens: capped(1, LIMITS.tokens).default(16384),
    /**
     * Token limit of the one retry of a target answer cut off by the limit: null = twice the call's limit.
     * Set it to the model's output cap when that is lower; at or below the call's limit there is no retry.
     */
    truncation_retry_max_tokens: capped(1, LIMITS.tokens).nullable().default(null),
  })
  .catchall(z.unknown()); // benchmark-specific keys are checked by the loader against lib/envs/catalog

export const BudgetSectionSchema = z.strictObject({
  max_usd: num.min(0).nullable().default(null),
  max_calls: int(0).nullable().default(null),
});

/**
 * Where a run's rollouts and evaluations execute (README "Several workers"). With `fan_out` the items of each
 * batch become child jobs that any worker on the same Redis and database runs; `exec_slots` is how many
 * items one worker process runs at once for the run (an exec target holds one slot per call).
 */
export const WorkerSectionSchema = z.strictObject({
  fan_out: z.boolean().default(false),
  /** Items per child job; 0 = `exec_slots` items (one round of slots per job). */
  fan_out_chunk: capped(0, 1_000).default(0),
  exec_slots: capped(1, 64).default(2),
});

export const RunConfigSchema = z.strictObject({
  model: ModelSectionSchema.prefault({}),
  train: TrainSectionSchema.prefault({}),
  gradient: GradientSectionSchema.prefault({}),
  optimizer: OptimizerSectionSchema.prefault({}),
  evaluation: EvaluationSectionSchema.prefault({}),
  env: EnvSectionSchema.prefault({}),
  budget: BudgetSectionSchema.prefault({}),
  worker: WorkerSectionSchema.prefault({}),
});

export type RunConfig = z.output<typeof RunConfigSchema>;
export type RunConfigInput = z.input<typeof RunConfigSchema>;
export const CONFIG_SECTIONS = [
  "model",
  "train",
  "gradient",
  "optimizer",
  "evaluation",
  "env",
  "budget",
  "worker",
] as const;
export type ConfigSection = (typeof CONFIG_SECTIONS)[number];
