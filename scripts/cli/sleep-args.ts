/**
 * The flags of `skillopt sleep` and what they mean for the SkillOpt-Sleep config (spec D.13), plus the
 * output helpers: every human line is secret-redacted and stripped of terminal controls.
 */
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { redactDeep, redactText } from "../../lib/contracts/redact";
import { AppError } from "../../lib/errors";
import { loadSleepConfig, type SleepConfig } from "../../lib/sleep";
import { displayLine } from "../../lib/sleep/staging/report-md";

const str = { type: "string" } as const;
const bool = { type: "boolean" } as const;

export const COMMON_OPTIONS = {
  project: str,
  scope: str,
  backend: str,
  model: str,
  "codex-path": str,
  "cursor-path": str,
  "pi-path": str,
  "opencode-path": str,
  "opencode-tool-replay": bool,
  "claude-home": str,
  "codex-home": str,
  "cursor-home": str,
  "pi-home": str,
  source: str,
  "vscode-workspace-storage": str,
  "copilot-cli-session-store": str,
  "opencode-db": str,
  "lookback-hours": str,
  "edit-budget": str,
  "max-sessions": str,
  "max-tasks": str,
  "target-skill-path": str,
  "skill-root": { type: "string", multiple: true },
  "tasks-file": str,
  progress: bool,
  "auto-adopt": bool,
  preferences: str,
  json: bool,
} as const;

export type Flags = Record<string, string | boolean | string[] | undefined>;

/** A whole number ≥ `min` from a flag, or a refusal naming the flag. */
export function intFlag(flags: Flags, name: string, min = 0): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || !/^\d+$/.test(v.trim()) || Number(v) < min) {
    throw new AppError("INVALID_REQUEST", `--${name} must be a whole number ≥ ${min} (got '${String(v)}')`, {
      field: `--${name}`,
    });
  }
  return Number(v);
}

const abs = (p: string | undefined, base: string) =>
  p === undefined ? undefined : isAbsolute(p) ? p : resolve(base, p);

/** The config overrides the common flags ask for (undefined entries are left to the file and the defaults). */
export function overridesOf(f: Flags, cwd: string): Record<string, unknown> {
  const s = (k: string) => (typeof f[k] === "string" ? (f[k] as string) : undefined);
  const project = abs(s("project"), cwd);
  const base = project ?? cwd;
  const scope = s("scope");
  if (scope !== undefined && scope !== "all" && scope !== "invoked")
    throw new AppError("INVALID_REQUEST", `--scope must be all or invoked (got '${scope}')`, { field: "--scope" });
  const db = s("opencode-db");
  return {
    invoked_project: project,
    projects: scope ?? (project ? "invoked" : undefined),
    backend: s("backend"),
    model: s("model"),
    codex_path: abs(s("codex-path"), cwd),
    cursor_path: abs(s("cursor-path"), cwd),
    pi_path: abs(s("pi-path"), cwd),
    opencode_path: abs(s("opencode-path"), cwd),
    opencode_tool_replay: f["opencode-tool-replay"] === true ? true : undefined,
    claude_home: abs(s("claude-home"), cwd),
    codex_home: abs(s("codex-home"), cwd),
    cursor_home: abs(s("cursor-home"), cwd),
    pi_home: abs(s("pi-home"), cwd),
    transcript_source: s("source"),
    vscode_workspace_storage: abs(s("vscode-workspace-storage"), cwd),
    copilot_cli_session_store: abs(s("copilot-cli-session-store"), cwd),
    opencode_db: db === ":memory:" ? db : abs(db, cwd),
    lookback_hours: intFlag(f, "lookback-hours"),
    edit_budget: intFlag(f, "edit-budget", 1),
    max_sessions_per_night: intFlag(f, "max-sessions", 1),
    max_tasks_per_night: intFlag(f, "max-tasks", 1),
    target_skill_path: abs(s("target-skill-path"), base),
    skill_roots:
      Array.isArray(f["skill-root"]) && f["skill-root"].length > 0
        ? f["skill-root"].map((r) => abs(r, base)!)
        : undefined,
    progress: f.progress === true ? true : undefined,
    auto_adopt: f["auto-adopt"] === true ? true : undefined,
    preferences: s("preferences"),
  };
}

export function configOf(f: Flags, extra: Record<string, unknown> = {}): SleepConfig {
  const cwd = process.cwd();
  return loadSleepConfig({ home: homedir(), cwd, overrides: { ...overridesOf(f, cwd), ...extra } });
}

/** One terminal-safe line: secrets redacted, controls removed. */
export function say(value: unknown): string {
  return displayLine(redactText(String(value)));
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(redactDeep(value), null, 2)}\n`);
}
