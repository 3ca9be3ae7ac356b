/**
 * Shared types of the exec target backends: an agent CLI (Codex, Claude Code) answers one benchmark task
 * in a fresh temporary workspace where the skill is installed as an agent skill file.
 */
import type { CompletionResult } from "../../engine/ports";

/** Which agent CLI a client drives. */
export type ExecKind = "codex" | "claude";

/** The child's environment, exactly as it is handed to the CLI (build it with `pickExecEnv`). */
export type ExecEnv = Record<string, string | undefined>;

/** File-system permission of the agent: look only, or also write inside its workspace. */
export type ExecSandbox = "read-only" | "workspace-write";

/** Settings of one exec client; the registry maps run config and process env onto this. */
export interface ExecSettings {
  /** The CLI binary: a name looked up on `env.PATH`, or a path. Default "codex" / "claude". */
  bin?: string;
  /** Model passed to the CLI (`-m` / `--model`); omitted when unset, so the CLI's default applies. */
  model?: string;
  /** Default "read-only". Codex enforces it with `--sandbox`; for Claude Code it shapes the prompt. */
  sandbox?: ExecSandbox;
  /** Codex `model_reasoning_effort` / Claude Code `--effort`; omitted when unset. */
  reasoningEffort?: string;
  /** Wall-clock limit per CLI run; the whole process group is killed when it passes. Default 300 000. */
  timeoutMs?: number;
  /** Extra attempts when the CLI ends with an empty answer. Default 1 (two runs at most). */
  emptyResponseRetries?: number;
  /** Keep each workspace (with the raw CLI output and the trace) instead of deleting it. Default false. */
  keepWorkspace?: boolean;
  /** Parent folder of the temporary workspaces. Default: the OS temp folder. */
  workRoot?: string;
  /** The child's environment, used verbatim. Pass PATH, HOME and the CLI's auth variables only. */
  env: ExecEnv;
}

/** Settings with every default filled in. */
export type ResolvedExecSettings = Required<Omit<ExecSettings, "model" | "reasoningEffort" | "workRoot">> &
  Pick<ExecSettings, "model" | "reasoningEffort" | "workRoot">;

/** What an exec client returns: a normal completion plus a bounded, redacted summary of the CLI run. */
export type ExecCompletionResult = CompletionResult & { trace?: string };

/** One prepared workspace. */
export interface Workspace {
  dir: string;
  /** Workspace-relative paths of the image attachments, in prompt order. */
  attachments: string[];
}

/** The outcome of one CLI run after its output was read. */
export interface ExecAttempt {
  /** The final answer (may be empty: the caller retries). */
  answer: string;
  promptTokens: number;
  completionTokens: number;
  /** Lines for the trace (commands run, files read, errors), unredacted and unbounded. */
  traceLines: string[];
}

/** An error thrown by the exec clients; `stopRun: "fail"` marks a CLI that cannot run at all. */
export type ExecError = Error & { stopRun?: "fail"; trace?: string };

export const SKILL_REL_PATH = ".agents/skills/skillopt-target/SKILL.md";
export const TASK_REL_PATH = "task.md";
export const ATTACHMENTS_REL_PATH = "ATTACHMENTS.md";

export const DEFAULT_TIMEOUT_MS = 300_000;
export const DEFAULT_EMPTY_RESPONSE_RETRIES = 1;
