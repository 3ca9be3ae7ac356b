/**
 * The factory that builds a role's ModelClient: one entry per backend; implementations live in their own
 * folders. Every client goes through the same policy layer (cache, budget, concurrency limit, timeout,
 * retries, usage and cost). Names, aliases and role resolution are in ./names (web-safe); this file loads
 * every SDK, so only the worker and the CLI import it (.dependency-cruiser.cjs keeps the web process out).
 */
import type { RunConfig } from "../contracts/run-config";
import type { SimKnowledge } from "../contracts/sim";
import type { ModelClient, Role } from "../engine/ports";
import { AppError } from "../errors";
import { createAnthropicProvider } from "./anthropic";
import { createAzureOpenAIProvider } from "./azure-openai";
import { createClaudeCodeExecClient, createCodexExecClient, type ExecKind } from "./exec";
import { execSettingsOf } from "./exec-settings";
import { findBackendExtension } from "./extensions";
import { createOpenAIProvider } from "./openai";
import { createCompatibleProvider } from "./openai-compatible";
import { capTransport, maxTokensCap } from "./max-tokens";
import { createPolicyClient } from "./policy/client";
import { RunPolicy } from "./policy/run-policy";
import type { ProviderArgs, ProviderFactory } from "./provider";
import type { EnvVars } from "./settings";
import { checkPriced, clientModelName, rawBackendOf, resolveRoles, type BackendName } from "./names";
import { createSimClient } from "./sim";

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

/** Builds the client of one role. */
export function createModelClient(role: Role, config: RunConfig, ctx: ClientContext): ModelClient {
  const backend = resolveRoles(config.model)[role];
  const run = ctx.run ?? new RunPolicy(config);
  const { resolved: model, display } = clientModelName(role, config, backend);
  const args: ProviderArgs = {
    role,
    config,
    env: ctx.env ?? {},
    model,
    transport: run.transport,
    rawBackend: rawBackendOf(config.model, role),
  };
  if (backend !== "sim") checkPriced(config, { backend, model, role, prices: run.prices });
  const factory = backend === "sim" ? simProvider(ctx) : (findBackendExtension(backend)?.provider ?? builtin(backend));
  const setup = factory(args);
  return createPolicyClient({
    role,
    backend,
    model: display,
    endpoint: setup.endpoint,
    transport: capTransport(setup.transport, maxTokensCap(config.model, role, backend, ctx.env ?? {})),
    run,
    retries: setup.retries,
    timeoutSeconds: setup.timeoutSeconds,
    authHint: setup.authHint,
    keyId: setup.keyId,
  });
}
