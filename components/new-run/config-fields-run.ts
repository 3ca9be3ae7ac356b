/** The Evaluation, Benchmark, Budget, Transport and Simulated-model sections of the New run form. */
import { GATE_METRICS, HUMAN_REVIEW_FALLBACKS, HUMAN_REVIEW_MODES } from "@/lib/contracts/run-config";
import { bool, int, num, oneOf, type ConfigSectionSpec } from "./config-field-kinds";

export const RUN_SECTIONS: ConfigSectionSpec[] = [
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
        key: "evaluation.early_decision",
        label: "Early reject",
        help: "Hard metric: stop scoring a candidate once no remaining selection item can save it (decided reject, partial score kept as a bound, never cached).",
        kind: bool,
      },
      {
        key: "evaluation.human_review",
        label: "Human review at the gate",
        help: "off; ask = the run pauses at each gate for a reviewer and takes the fallback after the timeout; required = it waits for a reviewer.",
        kind: oneOf(HUMAN_REVIEW_MODES),
      },
      {
        key: "evaluation.human_review_timeout_s",
        label: "Review timeout (s)",
        help: "How long an 'ask' review waits before its fallback applies (default 3600).",
        kind: int(1, 30 * 86_400),
      },
      {
        key: "evaluation.human_review_fallback",
        label: "Review fallback",
        help: "What an unanswered 'ask' review becomes: accept, reject, or gate (the automatic decision).",
        kind: oneOf(HUMAN_REVIEW_FALLBACKS),
      },
      {
        key: "evaluation.noise_floor_repeats",
        label: "Noise floor repeats",
        help: "Re-score the current skill this many times on the selection split at the start of each epoch (A/A) and draw the spread on the selection chart; 0 = off. Each repeat costs one selection evaluation.",
        kind: int(0, 20),
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
        key: "model.hedge",
        label: "Hedged calls",
        help: "Send a second copy of a call that runs past the learned latency percentile; the first answer wins. Both are billed (a few % more calls).",
        kind: bool,
      },
      {
        key: "model.rate_limit_rpm",
        label: "Shared limit: requests/min",
        help: "Per endpoint and key, shared by every worker through Redis; empty or 0 = off.",
        kind: int(0, 10_000_000),
        nullable: true,
      },
      {
        key: "model.rate_limit_tpm",
        label: "Shared limit: tokens/min",
        help: "Per endpoint and key, shared by every worker through Redis; empty or 0 = off.",
        kind: int(0, 1_000_000_000),
        nullable: true,
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
