/**
 * Sleep backend names → a SleepBackend (spec D.10). The names of the original are accepted as aliases;
 * each resolves to one of ours:
 *
 *   mock (sim)                                        the deterministic mock of spec D.14
 *   claude (claude_cli, claude_code, claude-code-exec) Claude Code CLI         — lib/backends/exec
 *   codex (codex_cli, openai_codex, codex-exec)        Codex CLI               — lib/backends/exec
 *   openai, anthropic, openai-compatible (compat)      API backends            — lib/backends
 *   azure_openai (azure, aoai, azure-openai)           Azure OpenAI            — lib/backends
 *   copilot (github_copilot, copilot_cli, gh_copilot)  GitHub Copilot CLI      — copilot.ts
 *   cursor (cursor_agent, cursor_cli, cursor-agent)    Cursor Agent CLI        — cursor.ts
 *   pi (pi_cli, pi_coding_agent)                       Pi coding agent CLI     — pi.ts
 *   opencode                                           OpenCode CLI            — opencode.ts
 *   handoff (session, file)                            prompt files, no model  — handoff.ts
 *
 * Any `optimizer_*` / `target_*` key makes a dual setup: rollouts on the target, judging, reflection and
 * mining on the optimizer. An unknown name is an error (the original silently fell back to the mock).
 * A CLI backend whose executable is missing is refused up front, naming the executable and its setting.
 */
import { RunConfigSchema } from "../../contracts/run-config";
import type { BackendName } from "../../backends/names";
import { createModelClient } from "../../backends/registry";
import { createClaudeCodeExecClient, createCodexExecClient, pickExecEnv, type ExecKind } from "../../backends/exec";
import { execSettingsOf } from "../../backends/exec-settings";
import { TransportOptionsSchema, type EnvVars } from "../../backends/settings";
import type { ModelClient, Role } from "../../engine/ports";
import { AppError } from "../../errors";
import type { SleepConfig } from "../config";
import type { PromptRegistry } from "../prompts";
import { createCopilotClient } from "./copilot";
import { createCursorClient } from "./cursor";
import { HandoffClient } from "./handoff";
import { MockBackend } from "./mock";
import { ModelBackend, type ToolRunner } from "./model";
import { createOpenCodeClient } from "./opencode";
import { createPiClient } from "./pi";
import { createToolRunner } from "./tool-replay";
import { resolveSleepBackend, type AgentCli, type Kind } from "./names";
import type { SleepBackend } from "./types";

export { resolveSleepBackend } from "./names";

const AGENT_CLIS: readonly string[] = ["copilot", "cursor", "pi", "opencode"];

export interface BuildBackendOptions {
  env: EnvVars;
  prompts: PromptRegistry;
  /** The handoff folder (used only by the handoff backend). */
  handoffDir: string;
}

export interface BuiltBackend {
  backend: SleepBackend;
  /** Set for the handoff backend: the CLI flushes its pending prompts. */
  handoff: HandoffClient | null;
}

interface RoleChoice {
  kind: Kind;
  model: string;
  field: string;
}

function roleChoice(cfg: SleepConfig, role: Role): RoleChoice {
  const raw = (role === "optimizer" ? cfg.optimizer_backend : cfg.target_backend).trim();
  const field = raw ? `${role}_backend` : "backend";
  const model = ((role === "optimizer" ? cfg.optimizer_model : cfg.target_model).trim() || cfg.model).trim();
  return { kind: resolveSleepBackend(raw || cfg.backend, field), model, field };
}

const EXEC_TIMEOUT_MS: Record<ExecKind, number> = { claude: 180_000, codex: 240_000 };

function execClient(
  kind: ExecKind,
  c: RoleChoice,
  cfg: SleepConfig,
  env: EnvVars,
): { client: ModelClient; tools: ToolRunner } {
  const envModel = env[kind === "claude" ? "SKILLOPT_SLEEP_CLAUDE_MODEL" : "SKILLOPT_SLEEP_CODEX_MODEL"]?.trim() ?? "";
  const config = RunConfigSchema.parse({
    model: {
      backend: `${kind === "claude" ? "claude-code" : "codex"}-exec`,
      target: c.model || envModel,
      codex_exec_path: cfg.codex_path || env.SKILLOPT_SLEEP_CODEX_PATH || undefined,
    },
  });
  const settings = {
    ...execSettingsOf(kind, config, env, TransportOptionsSchema.parse({})),
    timeoutMs: EXEC_TIMEOUT_MS[kind],
  };
  const client = kind === "claude" ? createClaudeCodeExecClient(settings) : createCodexExecClient(settings);
  const tools = createToolRunner({
    kind,
    bin: settings.bin!,
    model: settings.model,
    env: pickExecEnv(kind, env),
    timeoutMs: EXEC_TIMEOUT_MS[kind],
  });
  return { client, tools };
}

function agentCliClient(
  kind: AgentCli,
  c: RoleChoice,
  cfg: SleepConfig,
  env: EnvVars,
): { client: ModelClient; tools?: ToolRunner } {
  if (kind === "copilot") return createCopilotClient({ model: c.model, env });
  if (kind === "cursor") return createCursorClient({ model: c.model, path: cfg.cursor_path, env });
  if (kind === "pi") return { client: createPiClient({ model: c.model, path: cfg.pi_path, env }) };
  return createOpenCodeClient({ model: c.model, path: cfg.opencode_path, env, toolReplay: cfg.opencode_tool_replay });
}

function apiClient(kind: BackendName, role: Role, c: RoleChoice, cfg: SleepConfig, env: EnvVars): ModelClient {
  if (kind === "openai-compatible" && c.model === "") {
    throw new AppError(
      "INVALID_REQUEST",
      `${role === "optimizer" ? "optimizer_model" : "target_model"}: set the model name your OpenAI-compatible server uses (--model)`,
      { field: "model" },
    );
  }
  const model: Record<string, unknown> = {
    backend: kind,
    optimizer: c.model || "gpt-5.5",
    target: c.model || "gpt-5.5",
  };
  if (cfg.azure_endpoint) model.azure_openai_endpoint = cfg.azure_endpoint;
  return createModelClient(role, RunConfigSchema.parse({ model }), { simKnowledge: null, env });
}

export function buildSleepBackend(cfg: SleepConfig, o: BuildBackendOptions): BuiltBackend {
  const target = roleChoice(cfg, "target");
  const optimizer = roleChoice(cfg, "optimizer");
  const kinds = [target.kind, optimizer.kind];
  if (kinds.every((k) => k === "mock")) return { backend: withPreferences(new MockBackend(), cfg), handoff: null };
  if (kinds.includes("mock"))
    throw new AppError(
      "INVALID_REQUEST",
      `${target.kind === "mock" ? target.field : optimizer.field}: the mock backend cannot be combined with a real one`,
      { field: "backend" },
    );
  if (kinds.includes("handoff")) {
    if (kinds.some((k) => k !== "handoff"))
      throw new AppError(
        "INVALID_REQUEST",
        "backend: the handoff backend plays both roles; do not combine it with another backend",
        { field: "backend" },
      );
    const handoff = new HandoffClient(o.handoffDir, cfg.model);
    const backend = new ModelBackend({
      name: "handoff",
      target: handoff,
      optimizer: handoff,
      prompts: o.prompts,
      pendingCount: () => handoff.pendingCount(),
    });
    return { backend: withPreferences(backend, cfg), handoff };
  }
  const build = (role: Role, c: RoleChoice): { client: ModelClient; tools?: ToolRunner } => {
    if (c.kind === "claude-code-exec" || c.kind === "codex-exec")
      return execClient(c.kind === "claude-code-exec" ? "claude" : "codex", c, cfg, o.env);
    if (AGENT_CLIS.includes(c.kind)) return agentCliClient(c.kind as AgentCli, c, cfg, o.env);
    return { client: apiClient(c.kind as BackendName, role, c, cfg, o.env) };
  };
  const t = build("target", target);
  const same = target.kind === optimizer.kind && target.model === optimizer.model;
  const opt = same ? t : build("optimizer", optimizer);
  const name = same ? t.client.backend : `target=${t.client.backend}/optimizer=${opt.client.backend}`;
  return {
    backend: withPreferences(
      new ModelBackend({ name, target: t.client, optimizer: opt.client, prompts: o.prompts, toolRunner: t.tools }),
      cfg,
    ),
    handoff: null,
  };
}

function withPreferences(b: SleepBackend, cfg: SleepConfig): SleepBackend {
  b.preferences = cfg.preferences;
  return b;
}
