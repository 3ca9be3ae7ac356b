/**
 * The hyper-parameters the New run form edits: dotted key → label, one-line help and input kind.
 * Covers every key of RunConfigSchema's train / gradient / optimizer / evaluation sections, plus the env
 * keys that matter per run and the simulated model's knobs. Ranges mirror lib/contracts/run-config.ts.
 */
import {
  GATE_METRICS,
  LR_CONTROL_MODES,
  PAIR_POLICIES,
  REFLECT_MODES,
  SCHEDULERS,
  UPDATE_MODES,
} from "@/lib/contracts/run-config";

export type FieldKind =
  | { type: "int"; min?: number; max?: number }
  | { type: "number"; min?: number; max?: number; step?: number }
  | { type: "bool" }
  | { type: "enum"; options: readonly string[] }
  | { type: "text"; pattern?: RegExp; patternHint?: string };

export interface ConfigField {
  key: string;
  label: string;
  help: string;
  kind: FieldKind;
  /** Empty input means null (no value); only keys whose schema is nullable. */
  nullable?: boolean;
}

export interface ConfigSectionSpec {
  id: string;
  title: string;
  blurb: string;
  fields: ConfigField[];
}

const int = (min?: number, max?: number): FieldKind => ({ type: "int", min, max });
const num = (min?: number, max?: number, step = 0.01): FieldKind => ({ type: "number", min, max, step });
const bool: FieldKind = { type: "bool" };
const oneOf = (options: readonly string[]): FieldKind => ({ type: "enum", options });

export const CONFIG_SECTIONS_UI: ConfigSectionSpec[] = [
  {
    id: "train",
    title: "Training",
    blurb: "Epochs and batches: how much training data each step sees.",
    fields: [
      {
        key: "train.num_epochs",
        label: "Epochs",
        help: "Passes over the train split; each ends with a slow update and a meta-skill update.",
        kind: int(1),
      },
      {
        key: "train.batch_size",
        label: "Batch size",
        help: "Train items rolled out per step (the forward pass).",
        kind: int(1),
      },
      {
        key: "train.accumulation",
        label: "Accumulation",
        help: "Batches whose patches are pooled before one update (gradient accumulation).",
        kind: int(1),
      },
      {
        key: "train.train_size",
        label: "Train size",
        help: "0 = the whole train split; otherwise it must equal the split's size.",
        kind: int(0),
      },
      {
        key: "train.steps_per_epoch",
        label: "Steps per epoch",
        help: "Derived from train size ÷ (batch × accumulation); leave empty.",
        kind: int(0),
        nullable: true,
      },
      {
        key: "train.seed",
        label: "Seed",
        help: "Seeds shuffling and sampling; same seed + same answers = same run.",
        kind: int(),
      },
    ],
  },
  {
    id: "gradient",
    title: "Reflection (gradient)",
    blurb: "How the optimizer reads trajectories and proposes patches.",
    fields: [
      { key: "gradient.minibatch_size", label: "Minibatch size", help: "Trajectories per analyst call.", kind: int(1) },
      {
        key: "gradient.merge_batch_size",
        label: "Merge batch size",
        help: "Patches per merge (aggregate) call; at least 2.",
        kind: int(2),
      },
      {
        key: "gradient.analyst_workers",
        label: "Analyst workers",
        help: "Concurrent analyst and merge calls.",
        kind: int(1),
      },
      {
        key: "gradient.failure_only",
        label: "Failures only",
        help: "Never analyse successful trajectories (no success patches).",
        kind: bool,
      },
      {
        key: "gradient.reflect_mode",
        label: "Reflect mode",
        help: "deep reads whole trajectories; shallow reads task, prediction, reference and reason.",
        kind: oneOf(REFLECT_MODES),
      },
    ],
  },
  {
    id: "optimizer",
    title: "Optimizer",
    blurb: "The learning rate is an edit budget: at most that many edits per step.",
    fields: [
      {
        key: "optimizer.learning_rate",
        label: "Learning rate",
        help: "Edit budget: most edits applied per step (also each analyst call's budget).",
        kind: int(0),
      },
      {
        key: "optimizer.min_learning_rate",
        label: "Min learning rate",
        help: "Floor of the schedule (linear / cosine decay towards it).",
        kind: int(0),
      },
      {
        key: "optimizer.lr_scheduler",
        label: "LR scheduler",
        help: "How the budget changes over steps.",
        kind: oneOf(SCHEDULERS),
      },
      {
        key: "optimizer.lr_control_mode",
        label: "LR control",
        help: "fixed follows the schedule; autonomous lets the optimizer choose; none only differs in full-rewrite mode.",
        kind: oneOf(LR_CONTROL_MODES),
      },
      {
        key: "optimizer.meta_learning_rate",
        label: "Meta learning rate",
        help: "Kept for config compatibility; the original maps it but never reads it.",
        kind: num(0, undefined, 0.1),
        nullable: true,
      },
      {
        key: "optimizer.skill_update_mode",
        label: "Update mode",
        help: "patch applies edits; the rewrite modes regenerate the skill from suggestions.",
        kind: oneOf(UPDATE_MODES),
      },
      {
        key: "optimizer.use_slow_update",
        label: "Slow update",
        help: "At each epoch end, write longitudinal guidance into the skill's protected block.",
        kind: bool,
      },
      {
        key: "optimizer.slow_update_samples",
        label: "Slow-update samples",
        help: "Train items sampled for the old-vs-new answer comparison.",
        kind: int(1),
      },
      {
        key: "optimizer.slow_update_gate_with_selection",
        label: "Gate slow update",
        help: "Score the slow-update candidate on the selection split and gate it like a step.",
        kind: bool,
      },
      {
        key: "optimizer.longitudinal_pair_policy",
        label: "Pair policy",
        help: "Which pairs the slow update reads: mixed, changed answers, or unchanged ones.",
        kind: oneOf(PAIR_POLICIES),
      },
      {
        key: "optimizer.use_meta_skill",
        label: "Meta skill",
        help: "Optimizer-side memory of what worked, carried across epochs.",
        kind: bool,
      },
      {
        key: "optimizer.use_skill_aware_reflection",
        label: "Skill-aware reflection",
        help: "Route failures as skill defect vs execution lapse, with a protected appendix of notes.",
        kind: bool,
      },
      {
        key: "optimizer.skill_aware_appendix_source",
        label: "Appendix source",
        help: "Which analyses feed the skill-aware appendix.",
        kind: oneOf(["both", "failure_only"]),
      },
      {
        key: "optimizer.skill_aware_consolidate_threshold",
        label: "Consolidate threshold",
        help: "Compact the appendix with the model once it has more than N notes; 0 = never.",
        kind: int(0),
      },
    ],
  },
  {
    id: "evaluation",
    title: "Evaluation and gate",
    blurb: "A candidate is kept only if it scores strictly higher on the selection split.",
    fields: [
      {
        key: "evaluation.use_gate",
        label: "Use gate",
        help: "Off = every candidate is force-accepted (selection is still scored).",
        kind: bool,
      },
      {
        key: "evaluation.gate_metric",
        label: "Gate metric",
        help: "hard (exact), soft (partial credit) or a weighted mix.",
        kind: oneOf(GATE_METRICS),
      },
      {
        key: "evaluation.gate_mixed_weight",
        label: "Mixed weight",
        help: "Weight of the soft score when the gate metric is mixed (0–1).",
        kind: num(0, 1, 0.05),
      },
      {
        key: "evaluation.gate_rule",
        label: "Gate rule",
        help: "strict: accept when strictly higher (the original). significant: also require a significant paired improvement (exact sign test on the items that changed, p < 0.05) — a small selection split then accepts rarely.",
        kind: oneOf(["strict", "significant"]),
      },
      {
        key: "evaluation.noise_floor_repeats",
        label: "Noise floor repeats",
        help: "Re-score the current skill this many times on the selection split at the start of each epoch (A/A) and draw the spread on the selection chart; 0 = off. Each repeat costs one selection evaluation.",
        kind: int(0),
      },
      {
        key: "evaluation.gate_patience",
        label: "Gate patience",
        help: "Stop after this many rejected candidates in a row; 0 = never.",
        kind: int(0),
      },
      {
        key: "evaluation.max_error_share",
        label: "Max unanswered share",
        help: "Errors, timeouts and truncated answers are never scored; the gate compares skills on the items both answered. Above this share of unanswered items the step is skipped (0–1).",
        kind: num(0, 1, 0.05),
      },
      {
        key: "evaluation.sel_env_num",
        label: "Selection items",
        help: "Items of the selection split used by the gate; 0 = all.",
        kind: int(0),
      },
      {
        key: "evaluation.test_env_num",
        label: "Test items",
        help: "Items of the test split scored; 0 = all.",
        kind: int(0),
      },
      {
        key: "evaluation.eval_test",
        label: "Evaluate test",
        help: "Score the test split for the seed, the best and the final skill.",
        kind: bool,
      },
      {
        key: "evaluation.use_semantic_density",
        label: "Semantic density",
        help: "Add a density bonus (guidance words per length) to the gate score.",
        kind: bool,
      },
      {
        key: "evaluation.semantic_density_weight",
        label: "Density weight",
        help: "Weight of the semantic-density bonus.",
        kind: num(undefined, undefined, 0.01),
      },
      {
        key: "evaluation.leading_words",
        label: "Leading words",
        help: "Custom density words, comma-separated; empty = the built-in list.",
        kind: { type: "text" },
        nullable: true,
      },
    ],
  },
  {
    id: "env",
    title: "Benchmark",
    blurb: "Concurrency, item limits and time limits of the environment.",
    fields: [
      {
        key: "env.workers",
        label: "Workers",
        help: "Concurrent target calls during rollouts and evaluations.",
        kind: int(1),
      },
      {
        key: "env.limit",
        label: "Item limit",
        help: "Keep only the first N items of each split; 0 = all.",
        kind: int(0),
      },
      {
        key: "env.exec_timeout",
        label: "Timeout (s)",
        help: "Seconds per target call or task before it counts as a timeout.",
        kind: num(0, undefined, 1),
      },
      {
        key: "env.split_ratio",
        label: "Split ratio",
        help: "train:selection:test weights, used when the split mode is ratio.",
        kind: {
          type: "text",
          pattern: /^\s*[1-9]\d*\s*:\s*[1-9]\d*\s*:\s*[1-9]\d*\s*$/,
          patternHint: "three positive integers like 2:1:7",
        },
      },
      { key: "env.split_seed", label: "Split seed", help: "Seed of the ratio split.", kind: int() },
    ],
  },
  {
    id: "budget",
    title: "Spend limits",
    blurb: "Reserved before each call: the run pauses (resumable) instead of overspending. Empty = no limit.",
    fields: [
      {
        key: "budget.max_usd",
        label: "Max USD",
        help: "Needs a known price for both models (add unknown ones under model.price_table).",
        kind: num(0, undefined, 0.5),
        nullable: true,
      },
      {
        key: "budget.max_calls",
        label: "Max calls",
        help: "Model calls of both roles together.",
        kind: int(0),
        nullable: true,
      },
    ],
  },
  {
    id: "transport",
    title: "Real backends",
    blurb:
      "How calls to OpenAI, Azure, Anthropic and compatible servers are made. Keys, endpoints and presets come only from the server's environment or its config files.",
    fields: [
      {
        key: "model.max_concurrency",
        label: "Max concurrency",
        help: "Requests in flight per endpoint (default 16).",
        kind: int(1),
        nullable: true,
      },
      {
        key: "model.timeout_seconds",
        label: "Timeout per attempt (s)",
        help: "0 = none (default 300).",
        kind: int(0),
        nullable: true,
      },
      {
        key: "model.max_retries",
        label: "Max retries",
        help: "Retries of 429s, 5xx and timeouts, with backoff (default 5).",
        kind: int(0),
        nullable: true,
      },
      {
        key: "model.cache",
        label: "Response cache",
        help: "Answer identical calls from the local cache (successful answers only).",
        kind: bool,
      },
      {
        key: "model.openai_api_style",
        label: "OpenAI API",
        help: "auto picks the Responses API for the models that need it.",
        kind: oneOf(["auto", "chat", "responses"]),
        nullable: true,
      },
    ],
  },
  {
    id: "sim",
    title: "Simulated model",
    blurb: "Only used by the simulated backend (scores are synthetic): its noise and speed.",
    fields: [
      {
        key: "model.sim_slip_rate",
        label: "Simulated slip rate",
        help: "Chance that a guided answer is still wrong (seeded noise).",
        kind: num(0, 1, 0.01),
      },
      {
        key: "model.sim_unhelpful_rate",
        label: "Simulated unhelpful-edit rate",
        help: "Chance that an analyst adds an edit that breaks other rules (the gate should reject it).",
        kind: num(0, 1, 0.05),
      },
      {
        key: "model.sim_malformed_rate",
        label: "Simulated malformed-answer rate",
        help: "Chance of an unparseable optimizer answer (exercises the fallbacks).",
        kind: num(0, 1, 0.05),
      },
      {
        key: "model.sim_latency_ms",
        label: "Simulated latency (ms)",
        help: "Added delay per call, to watch a run unfold.",
        kind: int(0),
      },
      {
        key: "model.sim_truncate_rate",
        label: "Simulated truncation rate",
        help: "Chance that a target answer is cut off by the token limit (retried once with a larger limit).",
        kind: num(0, 1, 0.01),
      },
    ],
  },
];

export const ALL_CONFIG_FIELDS: ConfigField[] = CONFIG_SECTIONS_UI.flatMap((s) => s.fields);

/**
 * Each benchmark's own `env.*` options (lib/envs/catalog.ts), shown in a section of their own when the
 * preset's benchmark has any. The custom benchmark's options live in the "Your data" card.
 */
export const BENCHMARK_OPTION_FIELDS: Record<string, ConfigField[]> = {
  searchqa: [
    {
      key: "env.max_turns",
      label: "Answer turns",
      help: "Extra turns ask the model to re-check its answer; 1 = one call per question.",
      kind: int(1),
    },
  ],
  livemath: [
    {
      key: "env.shuffle_choices",
      label: "Shuffle choices",
      help: "Reorder the options per batch (seeded) so position cannot leak the answer.",
      kind: bool,
    },
    {
      key: "env.use_theorem",
      label: "Show theorem",
      help: "Give the target the reference theorem statement.",
      kind: bool,
    },
    {
      key: "env.use_sketch",
      label: "Show proof sketch",
      help: "Give the target the reference proof sketch.",
      kind: bool,
    },
  ],
  docvqa: [
    {
      key: "env.max_turns",
      label: "Answer turns",
      help: 'Extra "look again" turns while the reply has no <answer>; 1 = one call.',
      kind: int(1),
    },
    {
      key: "env.image_detail",
      label: "Image detail",
      help: "How much resolution the provider spends on the page image (OpenAI).",
      kind: oneOf(["auto", "low", "high"]),
    },
  ],
  officeqa: [
    {
      key: "env.use_local_tools",
      label: "Document tools",
      help: "glob / read / grep over the corpus; off = one call with the source hints only.",
      kind: bool,
    },
    {
      key: "env.max_tool_turns",
      label: "Tool rounds",
      help: "Model rounds per question before it must answer.",
      kind: int(1),
    },
    {
      key: "env.search_mode",
      label: "Search mode",
      help: "offline = the local corpus; custom_search = POST queries to the search URL the server is configured with.",
      kind: oneOf(["offline", "custom_search"]),
    },
    {
      key: "env.max_queries_per_turn",
      label: "Queries per round",
      help: "custom_search: queries run per model round.",
      kind: int(1),
    },
  ],
  spreadsheetbench: [
    {
      key: "env.mode",
      label: "Mode",
      help: "single = one script; multi = errors (and, in training, wrong cells) are fed back.",
      kind: oneOf(["single", "multi"]),
    },
    { key: "env.max_turns", label: "Turns (multi)", help: "Script attempts per task in multi mode.", kind: int(1) },
    {
      key: "env.sandbox_timeout",
      label: "Script time limit (s)",
      help: "Wall-clock limit of one script run; the whole sandbox is killed.",
      kind: num(0.1, undefined, 1),
    },
    {
      key: "env.memory_mb",
      label: "Script memory (MB)",
      help: "Address-space limit of the script; 0 = none.",
      kind: int(0),
    },
    {
      key: "env.exec_cache",
      label: "Reuse script results",
      help: "The same script on the same test case runs once per run.",
      kind: bool,
    },
  ],
  alfworld: [
    { key: "env.max_steps", label: "Max steps", help: "Actions per game before it counts as lost.", kind: int(1) },
    {
      key: "env.max_api_workers",
      label: "Concurrent games",
      help: "Target calls in flight across games.",
      kind: int(1),
    },
    {
      key: "env.simulator",
      label: "Simulator",
      help: "builtin = our offline household simulator; alfworld = the real games via Python (ALFWORLD_DATA).",
      kind: oneOf(["builtin", "alfworld"]),
    },
  ],
};

/** The form's sections for a benchmark: the common ones plus its own options after "Benchmark". */
export function configSectionsFor(benchmark: string, title: string): ConfigSectionSpec[] {
  const own = BENCHMARK_OPTION_FIELDS[benchmark];
  if (!own) return CONFIG_SECTIONS_UI;
  const at = CONFIG_SECTIONS_UI.findIndex((s) => s.id === "env") + 1;
  const section: ConfigSectionSpec = {
    id: `env-${benchmark}`,
    title: `${title.split(":")[0]} options`,
    blurb: "Settings of this benchmark's environment.",
    fields: own,
  };
  return [...CONFIG_SECTIONS_UI.slice(0, at), section, ...CONFIG_SECTIONS_UI.slice(at)];
}

/** Every field the form edits for a benchmark. */
export function configFieldsFor(benchmark: string): ConfigField[] {
  return [...ALL_CONFIG_FIELDS, ...(BENCHMARK_OPTION_FIELDS[benchmark] ?? [])];
}
