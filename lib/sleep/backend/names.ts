/**
 * Sleep backend names and their aliases (the original's names are accepted) → the kind each stands for.
 * Name checks only: the web process validates a Sleep project with this file, without loading any model
 * client; lib/sleep/backend/build.ts builds the backend in the CLI and the worker.
 */
import type { BackendName } from "../../backends/names";
import { SLEEP_DASHBOARD_BACKENDS } from "../../contracts/sleep";
import { AppError } from "../../errors";

export type AgentCli = "copilot" | "cursor" | "pi" | "opencode";
export type Kind = "mock" | "handoff" | AgentCli | BackendName;

const ALIASES: Record<string, Kind> = {
  mock: "mock",
  sim: "mock",
  simulated: "mock",
  claude: "claude-code-exec",
  claude_cli: "claude-code-exec",
  claude_code: "claude-code-exec",
  "claude-code": "claude-code-exec",
  "claude-code-exec": "claude-code-exec",
  codex: "codex-exec",
  codex_cli: "codex-exec",
  openai_codex: "codex-exec",
  "codex-exec": "codex-exec",
  openai: "openai",
  anthropic: "anthropic",
  "openai-compatible": "openai-compatible",
  openai_compatible: "openai-compatible",
  compat: "openai-compatible",
  azure: "azure-openai",
  azure_openai: "azure-openai",
  aoai: "azure-openai",
  "azure-openai": "azure-openai",
  copilot: "copilot",
  github_copilot: "copilot",
  copilot_cli: "copilot",
  gh_copilot: "copilot",
  cursor: "cursor",
  cursor_agent: "cursor",
  cursor_cli: "cursor",
  "cursor-agent": "cursor",
  pi: "pi",
  pi_cli: "pi",
  pi_coding_agent: "pi",
  opencode: "opencode",
  handoff: "handoff",
  session: "handoff",
  file: "handoff",
};

/** Every backend a night can name: the ones the dashboard runs unattended, and the handoff to a person. */
export const SLEEP_BACKENDS = [...SLEEP_DASHBOARD_BACKENDS, "handoff"] as const;

/** The kind a sleep backend name stands for; an unknown or unsupported name is refused naming the key. */
export function resolveSleepBackend(name: string, field: string): Kind {
  const key = name.trim().toLowerCase();
  const hit = ALIASES[key];
  if (hit) return hit;
  throw new AppError("INVALID_REQUEST", `${field}: unknown backend '${name}'; known: ${SLEEP_BACKENDS.join(", ")}`, {
    field,
  });
}
