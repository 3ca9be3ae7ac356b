/**
 * What a backend IS, without building one: the names and aliases (spec §2.7), which roles each may play,
 * per-role resolution, the model a role uses and the budget's price check. The dashboard validates a run
 * with these alone; the registry (lib/backends/registry.ts) builds clients and is loaded only by the
 * worker and the CLI. Registered backends (`registerBackend`) are checked against the built-in names here.
 */
import type { RunConfig } from "../contracts/run-config";
import type { Role } from "../engine/ports";
import { AppError } from "../errors";
import {
  findBackendExtension,
  listBackendExtensions,
  storeBackendExtension,
  type BackendExtension,
} from "./extensions";
import { priceOf, type PriceTable } from "./pricing";
import { priceTableOf, requireSecret, roleEnvNames, type EnvVars } from "./settings";

export const BACKENDS = [
  "sim",
  "openai",
  "azure-openai",
  "anthropic",
  "openai-compatible",
  "codex-exec",
  "claude-code-exec",
] as const;
export type BackendName = (typeof BACKENDS)[number];
export type { BackendExtension } from "./extensions";

/** Our names plus the original's (openai_chat, claude_chat, qwen_chat …), case-insensitive. */
const ALIASES: Record<string, BackendName> = {
  sim: "sim",
  simulated: "sim",
  openai: "openai",
  openai_chat: "openai",
  azure: "azure-openai",
  azure_openai: "azure-openai",
  "azure-openai": "azure-openai",
  anthropic: "anthropic",
  claude: "anthropic",
  claude_chat: "anthropic",
  compat: "openai-compatible",
  openai_compatible: "openai-compatible",
  "openai-compatible": "openai-compatible",
  openai_compatible_chat: "openai-compatible",
  qwen: "openai-compatible",
  qwen_chat: "openai-compatible",
  minimax: "openai-compatible",
  minimax_chat: "openai-compatible",
  codex: "codex-exec",
  codex_exec: "codex-exec",
  "codex-exec": "codex-exec",
  claude_code_exec: "claude-code-exec",
  "claude-code-exec": "claude-code-exec",
};

/** Exec backends drive an agent CLI; they can only play the target role. */
const TARGET_ONLY: ReadonlySet<string> = new Set(["codex-exec", "claude-code-exec"]);

const targetOnly = (backend: string) =>
  TARGET_ONLY.has(backend) || findBackendExtension(backend)?.roles?.includes("optimizer") === false;

/** The canonical name of a built-in or registered backend; unknown → an error listing every known one. */
export function normaliseBackend(name: string, field: string): string {
  const hit = ALIASES[name.trim().toLowerCase()] ?? findBackendExtension(name)?.name;
  if (!hit) {
    const known = [...BACKENDS, ...listBackendExtensions().map((e) => e.name)];
    throw new AppError("INVALID_REQUEST", `${field}: unknown backend '${name}'; known: ${known.join(", ")}`, {
      field,
    });
  }
  return hit;
}

/**
 * Adds a model backend at run time (README "Adding a model backend"): configs may then name it in
 * `model.backend` / `model.<role>_backend`, runs build its clients through the policy layer, and the
 * dashboard's backend catalog lists it. A name or alias already taken, or a malformed name, is refused.
 * Register it in every process that runs or lists runs (dashboard, worker, CLI). Returns `unregister`.
 */
export function registerBackend(ext: BackendExtension): () => void {
  const fail = (msg: string) => {
    throw new AppError("INVALID_REQUEST", `registerBackend: ${msg}`, { field: "backend.name" });
  };
  if (!/^[a-z][a-z0-9-]*$/.test(ext.name)) fail(`name '${ext.name}' must be lower-case letters, digits and dashes`);
  if (ext.roles !== undefined && ext.roles.length === 0) fail(`'${ext.name}' must play at least one role`);
  for (const spelling of [ext.name, ...(ext.aliases ?? [])]) {
    const s = spelling.trim().toLowerCase();
    if (s === "" || ALIASES[s] !== undefined || findBackendExtension(s) !== null)
      fail(`'${spelling}' is already the name of a backend`);
  }
  return storeBackendExtension(ext);
}

const unset = (v: string) => v.trim() === "" || v.trim().toLowerCase() === "openai_chat";

/** The name the user wrote for a role's backend (an alias such as "qwen" may carry meaning). */
export function rawBackendOf(model: RunConfig["model"], role: Role): string {
  const explicit = role === "optimizer" ? model.optimizer_backend : model.target_backend;
  return unset(explicit) ? model.backend || "openai" : explicit;
}

/**
 * The backend of each role: an explicit `<role>_backend` wins; otherwise `model.backend` decides, except
 * that a target-only backend leaves the optimizer on the OpenAI API.
 */
export function resolveRoles(model: RunConfig["model"]): Record<Role, string> {
  const main = normaliseBackend(model.backend || "openai", "model.backend");
  const optimizer = unset(model.optimizer_backend)
    ? targetOnly(main)
      ? "openai"
      : main
    : normaliseBackend(model.optimizer_backend, "model.optimizer_backend");
  const target = unset(model.target_backend) ? main : normaliseBackend(model.target_backend, "model.target_backend");
  if (targetOnly(optimizer)) {
    throw new AppError(
      "INVALID_REQUEST",
      `model.optimizer_backend: '${optimizer}' can only be used for the target role`,
      { field: "model.optimizer_backend" },
    );
  }
  return { optimizer, target };
}

/** The model a role's client uses (`resolved`, possibly "" for an agent CLI's own default) and the name it carries. */
export function clientModelName(role: Role, config: RunConfig, backend: string): { resolved: string; display: string } {
  const resolved = resolveModel(role, config, backend);
  return { resolved, display: resolved || `${backend}-${role}` };
}

/** Refuses a USD budget for a model without a known price: the budget could not be enforced. */
export function checkPriced(
  config: RunConfig,
  o: { backend: string; model: string; role: Role; prices?: PriceTable },
): void {
  const { backend, model, role } = o;
  if (config.budget.max_usd === null || priceOf(backend, model, o.prices ?? priceTableOf(config.model))) return;
  throw new AppError(
    "INVALID_REQUEST",
    `budget.max_usd: no price is known for ${backend}:${model} (the ${role}), so the budget cannot be enforced; add it under model.price_table as "${backend}:${model}": {inputPerMTok, outputPerMTok}`,
    { field: "budget.max_usd" },
  );
}

/** The shipped OpenAI defaults: a role left on one of them gets its backend's own default model. */
const OPENAI_SENTINELS: ReadonlySet<string> = new Set(["gpt-5.5", "gpt-5.4"]);
const DEFAULT_MODEL: Partial<Record<BackendName, string>> = {
  anthropic: "claude-sonnet-4-6",
  "claude-code-exec": "",
  "codex-exec": "",
};

/**
 * The model a role uses. As in the original, a role still on the shipped OpenAI default is switched to
 * the backend's default; an OpenAI-compatible server has no universal default, so that is an error
 * naming the key to set.
 */
export function resolveModel(role: Role, config: RunConfig, backend: string): string {
  const model = role === "optimizer" ? config.model.optimizer : config.model.target;
  if (!OPENAI_SENTINELS.has(model)) return model;
  if (backend in DEFAULT_MODEL) return DEFAULT_MODEL[backend as BackendName]!;
  if (backend === "openai-compatible") {
    throw new AppError(
      "INVALID_REQUEST",
      `model.${role}: '${model}' is an OpenAI model name; set the model name your OpenAI-compatible server uses`,
      { field: `model.${role}` },
    );
  }
  return model;
}

/** The API key variable of the backends whose key can only come from the environment (their providers read the same). */
const API_KEY_VAR: Partial<Record<BackendName, string>> = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" };

/**
 * Refuses a role whose backend needs an API key the environment lacks, with the provider's own message,
 * so the dashboard refuses such a run at once without building the client.
 */
export function checkApiKey(role: Role, backend: string, env: EnvVars): void {
  const name = API_KEY_VAR[backend as BackendName];
  if (name) requireSecret(env, roleEnvNames(role, name), { role, backend });
}
