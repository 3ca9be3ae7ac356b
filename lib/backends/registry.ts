/**
 * Backend names, aliases and per-role resolution (spec §2.7), and the factory that builds a role's
 * ModelClient. One entry per backend; implementations live in their own folders. Every client goes
 * through the same policy layer (cache, budget, concurrency limit, timeout, retries, usage and cost).
 */
import type { RunConfig } from "../contracts/run-config";
import type { SimKnowledge } from "../contracts/sim";
import type { ModelClient, Role } from "../engine/ports";
import { AppError } from "../errors";
import { createAnthropicProvider } from "./anthropic";
import { createAzureOpenAIProvider } from "./azure-openai";
import { createClaudeCodeExecClient, createCodexExecClient, type ExecKind } from "./exec";
import { execSettingsOf } from "./exec-settings";
import {
  findBackendExtension,
  listBackendExtensions,
  storeBackendExtension,
  type BackendExtension,
} from "./extensions";
import { createOpenAIProvider } from "./openai";
import { createCompatibleProvider } from "./openai-compatible";
import { capTransport, maxTokensCap } from "./max-tokens";
import { createPolicyClient } from "./policy/client";
import { RunPolicy } from "./policy/run-policy";
import { priceOf } from "./pricing";
import type { ProviderArgs, ProviderFactory } from "./provider";
import type { EnvVars } from "./settings";
import { createSimClient } from "./sim";

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

export interface ClientContext {
  /** The sim's knowledge of the benchmark sample (null: sim answers without hidden annotations). */
  simKnowledge: SimKnowledge | null;
  /** Environment variables (callers pass `process.env`): the only source of keys. Default: none. */
  env?: EnvVars;
  /** The run's shared policy state (budget, usage, cache). Default: a fresh one for this client. */
  run?: RunPolicy;
}

function simProvider(ctx: ClientContext): ProviderFactory {
  return (a) => {
    const m = a.config.model;
    const sim = createSimClient({
      role: a.role,
      model: a.model,
      knowledge: ctx.simKnowledge,
      seed: a.config.train.seed,
      slipRate: m.sim_slip_rate,
      unhelpfulRate: m.sim_unhelpful_rate,
      malformedRate: m.sim_malformed_rate,
      latencyMs: m.sim_latency_ms,
      truncateRate: m.sim_truncate_rate,
    });
    return {
      endpoint: "sim",
      retries: false,
      transport: { params: () => ({}), send: (req, signal) => sim.complete({ ...req, signal }) },
    };
  };
}

/**
 * The exec target backends (lib/backends/exec): an agent CLI answers in a fresh workspace. They retry
 * empty answers and enforce their own time limit, so the policy adds neither; it still counts the calls
 * against the budget and records usage.
 */
function execProvider(kind: ExecKind): ProviderFactory {
  return (a) => {
    const s = execSettingsOf(kind, a.config, a.env, a.transport);
    const client = kind === "codex" ? createCodexExecClient(s) : createClaudeCodeExecClient(s);
    const params = { bin: s.bin, model: s.model, sandbox: s.sandbox, effort: s.reasoningEffort };
    return {
      endpoint: `${client.backend} ${s.bin}`,
      retries: false,
      timeoutSeconds: 0,
      transport: { params: () => params, send: (req, signal) => client.complete({ ...req, signal }) },
    };
  };
}

/** One entry per backend (the sim's needs the run's sample knowledge, so it is made per call). */
const PROVIDERS: Record<Exclude<BackendName, "sim">, ProviderFactory> = {
  openai: createOpenAIProvider,
  "azure-openai": createAzureOpenAIProvider,
  anthropic: createAnthropicProvider,
  "openai-compatible": createCompatibleProvider,
  "codex-exec": execProvider("codex"),
  "claude-code-exec": execProvider("claude"),
};

function builtin(backend: string): ProviderFactory {
  const hit = PROVIDERS[backend as Exclude<BackendName, "sim">];
  if (!hit) throw new AppError("INTERNAL", `no provider for backend '${backend}'`);
  return hit;
}

/** Refuses a USD budget for a model without a known price: the budget could not be enforced. */
function checkPriced(run: RunPolicy, config: RunConfig, backend: string, model: string, role: Role): void {
  if (config.budget.max_usd === null || priceOf(backend, model, run.prices)) return;
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

/** Builds the client of one role. */
export function createModelClient(role: Role, config: RunConfig, ctx: ClientContext): ModelClient {
  const backend = resolveRoles(config.model)[role];
  const run = ctx.run ?? new RunPolicy(config);
  const model = resolveModel(role, config, backend);
  const args: ProviderArgs = {
    role,
    config,
    env: ctx.env ?? {},
    model,
    transport: run.transport,
    rawBackend: rawBackendOf(config.model, role),
  };
  if (backend !== "sim") checkPriced(run, config, backend, model, role);
  const factory = backend === "sim" ? simProvider(ctx) : (findBackendExtension(backend)?.provider ?? builtin(backend));
  const setup = factory(args);
  return createPolicyClient({
    role,
    backend,
    model: model || `${backend}-${role}`,
    endpoint: setup.endpoint,
    transport: capTransport(setup.transport, maxTokensCap(config.model, role, backend, ctx.env ?? {})),
    run,
    retries: setup.retries,
    timeoutSeconds: setup.timeoutSeconds,
    authHint: setup.authHint,
    keyId: setup.keyId,
  });
}
