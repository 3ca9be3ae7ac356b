/**
 * The key vocabulary of run configs: which sections exist, how legacy flat keys map into them
 * (spec/engine.md §2.2, read in reverse), the backend transport keys the loader lets through, the
 * Codex aliases, the retired keys and the secret-looking names that are refused.
 */
import type { z } from "zod";
import {
  BudgetSectionSchema,
  CONFIG_SECTIONS,
  EnvSectionSchema,
  EvaluationSectionSchema,
  GradientSectionSchema,
  ModelSectionSchema,
  OptimizerSectionSchema,
  TrainSectionSchema,
  WorkerSectionSchema,
  type ConfigSection,
} from "../contracts/run-config";

/** The zod object of each section (unwrapped from the `prefault` in `RunConfigSchema`). */
export const SECTION_SCHEMAS: Record<ConfigSection, z.ZodObject> = {
  model: ModelSectionSchema,
  train: TrainSectionSchema,
  gradient: GradientSectionSchema,
  optimizer: OptimizerSectionSchema,
  evaluation: EvaluationSectionSchema,
  env: EnvSectionSchema,
  budget: BudgetSectionSchema,
  worker: WorkerSectionSchema,
};

/** True when `key` names a config section. */
export function isSection(key: string): key is ConfigSection {
  return (CONFIG_SECTIONS as readonly string[]).includes(key);
}

/** The keys a section's schema declares. */
export function sectionKeys(section: ConfigSection): string[] {
  return Object.keys(SECTION_SCHEMAS[section].shape);
}

/** Flat (legacy) spellings that differ from the structured leaf name. */
const RENAMED_FLAT_KEYS: Record<string, readonly [ConfigSection, string]> = {
  model_backend: ["model", "backend"],
  optimizer_model: ["model", "optimizer"],
  target_model: ["model", "target"],
  edit_budget: ["optimizer", "learning_rate"],
  min_edit_budget: ["optimizer", "min_learning_rate"],
  meta_edit_budget: ["optimizer", "meta_learning_rate"],
  env: ["env", "name"],
};

function buildFlatTable(): Map<string, readonly [ConfigSection, string]> {
  const renamed = new Set(Object.values(RENAMED_FLAT_KEYS).map(([s, k]) => `${s}.${k}`));
  const table = new Map<string, readonly [ConfigSection, string]>();
  for (const section of CONFIG_SECTIONS) {
    for (const key of sectionKeys(section)) {
      // A renamed leaf is reachable only through its flat spelling: a bare `learning_rate` or `target`
      // was never a flat key, so it falls through to env.* where the unknown-key check suggests the fix.
      if (!renamed.has(`${section}.${key}`)) table.set(key, [section, key]);
    }
  }
  for (const [flat, path] of Object.entries(RENAMED_FLAT_KEYS)) table.set(flat, path);
  return table;
}

/** Every flat key the schema knows, with its structured home. */
export const FLAT_KEYS: ReadonlyMap<string, readonly [ConfigSection, string]> = buildFlatTable();

/** Per-role transport settings of the SDK backends: each also exists as `optimizer_<key>` and `target_<key>`. */
const PER_ROLE_TRANSPORT_KEYS = [
  "openai_base_url",
  "openai_api_style",
  "azure_openai_endpoint",
  "azure_openai_api_version",
  "azure_openai_deployment",
  "anthropic_base_url",
  "anthropic_thinking_budget",
  "compatible_preset",
  "compatible_base_url",
  "compatible_temperature",
  "max_tokens",
] as const;

/**
 * Transport settings of the real backends (owned by `lib/backends`, which validates the values; the
 * loader only checks the names). Secrets are never among them: keys come from environment variables.
 * Entries ending in `_` are prefixes (the exec backends' option families); others are exact names.
 */
export const MODEL_TRANSPORT_KEYS = [
  ...PER_ROLE_TRANSPORT_KEYS.flatMap((k) => [k, `optimizer_${k}`, `target_${k}`]),
  "max_concurrency",
  "timeout_seconds",
  "max_retries",
  "cache",
  "cache_dir",
  "price_table",
  "hedge",
  "hedge_percentile",
  "hedge_min_samples",
  "hedge_tail_percentile",
  "hedge_tail_calls",
  "hedge_tiers",
  "rate_limit_rpm",
  "rate_limit_tpm",
  "codex_exec_",
  "claude_code_exec_",
  "cursor_exec_",
  "copilot_",
] as const;

/** True when `key` is a backend transport setting that may sit under `model`. */
export function isModelTransportKey(key: string): boolean {
  return MODEL_TRANSPORT_KEYS.some((k) => (k.endsWith("_") ? key.startsWith(k) && key.length > k.length : key === k));
}

/**
 * Where a flat (top-level, non-section) key lives in the structured form: the mapping table, then the
 * backend transport keys, then `env.<key>` (the original passed unknown flat keys to the env adapter).
 */
export function flatKeyPath(key: string): [string, string] {
  const known = FLAT_KEYS.get(key);
  if (known) return [known[0], known[1]];
  if (isModelTransportKey(key)) return ["model", key];
  return ["env", key];
}

/** Older Codex option names, first match wins (spec/engine.md §2.1). */
const CODEX_ALIASES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["codex_exec_path", ["codex_path", "codex_cli_bin", "codex_bin"]],
  ["codex_exec_sandbox", ["sandbox", "codex_sandbox"]],
];

/** The canonical spelling of a Codex option alias; other keys are returned unchanged. */
export function canonicalCodexKey(key: string): string {
  for (const [canonical, aliases] of CODEX_ALIASES) if (aliases.includes(key)) return canonical;
  return key;
}

/**
 * A copy of `map` with Codex aliases folded into their canonical keys: the canonical key wins, else
 * the first alias present; every alias is removed either way.
 */
export function foldCodexAliases(map: Record<string, unknown>): Record<string, unknown> {
  const out = { ...map };
  for (const [canonical, aliases] of CODEX_ALIASES) {
    for (const alias of aliases) {
      if (!Object.hasOwn(out, alias)) continue;
      if (!Object.hasOwn(out, canonical)) out[canonical] = out[alias];
      delete out[alias];
    }
  }
  return out;
}

/** Options the original removed; still accepted (and ignored, with a warning) so old files load. */
export const RETIRED_KEYS = { flat: "max_analyst_rounds", section: "gradient", key: "max_analyst_rounds" } as const;

const SECRET_SUFFIXES = ["api_key", "api-key", "token", "secret", "password"] as const;

/** True when a key name looks like it holds a credential; such keys are refused in configs. */
export function isSecretKey(key: string): boolean {
  const lower = key.toLowerCase();
  return SECRET_SUFFIXES.some((s) => lower.endsWith(s));
}
