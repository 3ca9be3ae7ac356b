/**
 * Backend names, aliases and per-role resolution (spec §2.7), and the factory that builds a role's
 * ModelClient. One entry per backend; implementations live in their own folders.
 */
import type { RunConfig } from "../contracts/run-config";
import type { SimKnowledge } from "../contracts/sim";
import type { ModelClient, Role } from "../engine/ports";
import { AppError } from "../errors";
import { createSimClient } from "./sim";

export const BACKENDS = ["sim", "openai", "azure-openai", "anthropic", "openai-compatible", "codex-exec", "claude-code-exec"] as const;
export type BackendName = (typeof BACKENDS)[number];

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
const TARGET_ONLY: ReadonlySet<BackendName> = new Set(["codex-exec", "claude-code-exec"]);

export function normaliseBackend(name: string, field: string): BackendName {
  const hit = ALIASES[name.trim().toLowerCase()];
  if (!hit) {
    throw new AppError("INVALID_REQUEST", `${field}: unknown backend '${name}'; known: ${BACKENDS.join(", ")}`, { field });
  }
  return hit;
}

/**
 * The backend of each role: an explicit `<role>_backend` wins; otherwise `model.backend` decides, except
 * that a target-only backend leaves the optimizer on the OpenAI API.
 */
export function resolveRoles(model: RunConfig["model"]): Record<Role, BackendName> {
  const main = normaliseBackend(model.backend || "openai", "model.backend");
  const unset = (v: string) => v.trim() === "" || v.trim().toLowerCase() === "openai_chat";
  const optimizer = unset(model.optimizer_backend)
    ? TARGET_ONLY.has(main) ? "openai" : main
    : normaliseBackend(model.optimizer_backend, "model.optimizer_backend");
  const target = unset(model.target_backend) ? main : normaliseBackend(model.target_backend, "model.target_backend");
  if (TARGET_ONLY.has(optimizer)) {
    throw new AppError("INVALID_REQUEST", `model.optimizer_backend: '${optimizer}' can only be used for the target role`, { field: "model.optimizer_backend" });
  }
  return { optimizer, target };
}

export interface ClientContext {
  /** The sim's knowledge of the benchmark sample (null: sim answers without hidden annotations). */
  simKnowledge: SimKnowledge | null;
}

/** Builds the client of one role. */
export function createModelClient(role: Role, config: RunConfig, ctx: ClientContext): ModelClient {
  const backend = resolveRoles(config.model)[role];
  const m = config.model;
  switch (backend) {
    case "sim":
      return createSimClient({
        role,
        model: role === "optimizer" ? m.optimizer : m.target,
        knowledge: ctx.simKnowledge,
        seed: config.train.seed,
        slipRate: m.sim_slip_rate,
        unhelpfulRate: m.sim_unhelpful_rate,
        malformedRate: m.sim_malformed_rate,
        latencyMs: m.sim_latency_ms,
      });
    default:
      throw new AppError(
        "INVALID_REQUEST",
        `model.${role}_backend: backend '${backend}' is not available in this build yet; use model.backend=sim`,
        { field: `model.${role}_backend` },
      );
  }
}
