/**
 * Run config and environment → the settings of the exec target backends (lib/backends/exec): which CLI
 * binary, sandbox and effort, and the child's environment (only PATH, HOME and the CLI's own variables).
 * A CLI that cannot be found refuses the run before it starts.
 *
 *   codex-exec        bin     model.codex_exec_path > CODEX_EXEC_PATH > CODEX_CLI_BIN > CODEX_PATH > codex
 *                     sandbox model.codex_exec_sandbox > CODEX_EXEC_SANDBOX > CODEX_SANDBOX_MODE > CODEX_SANDBOX > read-only
 *                     effort  model.codex_exec_reasoning_effort > CODEX_EXEC_REASONING_EFFORT ("none": not sent)
 *   claude-code-exec  bin     model.claude_code_exec_path > CLAUDE_CODE_EXEC_PATH > claude
 *                     effort  model.claude_code_exec_effort > CLAUDE_CODE_EXEC_EFFORT > medium
 *   both              timeout model.timeout_seconds (per CLI run; 0: the exec default of 300 s)
 */
import type { RunConfig } from "../contracts/run-config";
import { AppError } from "../errors";
import { checkExecBinary, pickExecEnv, type ExecKind, type ExecSandbox, type ExecSettings } from "./exec";
import type { EnvVars, TransportOptions } from "./settings";
import { fromEnv } from "./settings";

type Model = RunConfig["model"];

function pick(model: Model, key: string, envNames: string[], env: EnvVars): string | undefined {
  const v = (model as Record<string, unknown>)[key];
  if (typeof v === "string" && v.trim() !== "") return v.trim();
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return fromEnv(env, envNames)?.value;
}

const SANDBOXES: readonly ExecSandbox[] = ["read-only", "workspace-write"];

/** The exec client settings of the target role; throws when the CLI cannot be found. */
export function execSettingsOf(kind: ExecKind, config: RunConfig, env: EnvVars, t: TransportOptions): ExecSettings {
  const m = config.model;
  const childEnv = pickExecEnv(kind, env);
  const timeoutMs = t.timeout_seconds > 0 ? Math.round(t.timeout_seconds * 1000) : undefined;
  let settings: ExecSettings;
  if (kind === "codex") {
    const sandbox = pick(m, "codex_exec_sandbox", ["CODEX_EXEC_SANDBOX", "CODEX_SANDBOX_MODE", "CODEX_SANDBOX"], env);
    if (sandbox !== undefined && !(SANDBOXES as readonly string[]).includes(sandbox)) {
      throw new AppError(
        "INVALID_REQUEST",
        `model.codex_exec_sandbox: expected ${SANDBOXES.join(" or ")}, got '${sandbox}'`,
        { field: "model.codex_exec_sandbox" },
      );
    }
    const effort = pick(m, "codex_exec_reasoning_effort", ["CODEX_EXEC_REASONING_EFFORT"], env);
    settings = {
      bin: pick(m, "codex_exec_path", ["CODEX_EXEC_PATH", "CODEX_CLI_BIN", "CODEX_PATH"], env) ?? "codex",
      model: m.target.trim() || undefined,
      sandbox: sandbox as ExecSandbox | undefined,
      reasoningEffort: effort && effort.toLowerCase() !== "none" ? effort : undefined,
      timeoutMs,
      env: childEnv,
    };
  } else {
    // The OpenAI default model name means "not chosen" for Claude Code: its own default applies.
    const model = m.target.trim();
    settings = {
      bin: pick(m, "claude_code_exec_path", ["CLAUDE_CODE_EXEC_PATH"], env) ?? "claude",
      model: model === "" || model.startsWith("gpt-") ? undefined : model,
      reasoningEffort: pick(m, "claude_code_exec_effort", ["CLAUDE_CODE_EXEC_EFFORT"], env) ?? "medium",
      timeoutMs,
      env: childEnv,
    };
  }
  const missing = checkExecBinary(settings.bin!, childEnv, kind);
  if (missing)
    throw new AppError("INVALID_REQUEST", `model.target_backend: ${missing}`, { field: "model.target_backend" });
  return settings;
}
