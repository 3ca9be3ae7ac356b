/**
 * SkillOpt-Sleep configuration (spec D.3). Sources, later ones winning: the built-in defaults, the user's
 * file `<home>/.skillopt-sleep/config.{json,yaml,yml}` (the first that exists), then explicit overrides
 * (CLI flags, API callers). Every key is validated; an unknown key is named, with a suggestion.
 * Paths are resolved against the injected home and working directory, never the process's own.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { suggestKey } from "../config/suggest";
import { AppError } from "../errors";
import { TRANSCRIPT_SOURCES } from "./session-digest";

const fraction = z.number().min(0).max(1);
const count = (min: number) => z.number().int().min(min);

export const SleepConfigSchema = z
  .strictObject({
    claude_home: z.string().default(""),
    codex_home: z.string().default(""),
    pi_home: z.string().default(""),
    cursor_home: z.string().default(""),
    vscode_workspace_storage: z.string().default(""),
    copilot_cli_session_store: z.string().default(""),
    opencode_db: z.string().default(""),
    transcript_source: z.enum(TRANSCRIPT_SOURCES).default("claude"),
    /** `invoked` (the invoked project and paths above or below it), `all`, or a list of project folders. */
    projects: z.union([z.enum(["invoked", "all"]), z.array(z.string())]).default("invoked"),
    invoked_project: z.string().default(""),
    /** First-night harvest window in hours; 0 = the whole history. */
    lookback_hours: z.number().min(0).default(72),
    max_tasks_per_night: count(1).default(40),
    /** 0 = three times max_tasks_per_night. */
    max_sessions_per_night: count(0).default(0),
    /** Declared for compatibility with the original; the cycle does not enforce it (neither did the original). */
    max_tokens_per_night: count(0).default(400_000),
    /** Legacy alias of val_fraction (used only when val_fraction is not given). */
    holdout_fraction: fraction.optional(),
    val_fraction: fraction.default(0.34),
    test_fraction: fraction.default(0),
    backend: z.string().default("mock"),
    model: z.string().default(""),
    optimizer_backend: z.string().default(""),
    optimizer_model: z.string().default(""),
    target_backend: z.string().default(""),
    target_model: z.string().default(""),
    azure_endpoint: z.string().default(""),
    codex_path: z.string().default(""),
    pi_path: z.string().default(""),
    cursor_path: z.string().default(""),
    opencode_path: z.string().default(""),
    opencode_tool_replay: z.boolean().default(false),
    /** `on` gates on validation; `off` / `none` / `false` / `greedy` keep every applied edit. */
    gate_mode: z.string().default("on"),
    gate_metric: z.enum(["hard", "soft", "mixed"]).default("mixed"),
    gate_mixed_weight: z.number().default(0.5),
    gate_no_regression: z.boolean().default(false),
    edit_budget: count(1).default(4),
    preferences: z.string().default(""),
    /** A label in the report only. */
    replay_mode: z.string().default("mock"),
    dream_rollouts: count(1).default(1),
    dream_factor: count(0).default(0),
    recall_k: count(0).default(0),
    evolve_memory: z.boolean().default(true),
    evolve_skill: z.boolean().default(true),
    llm_mine: z.boolean().default(true),
    target_skill_path: z.string().default(""),
    skill_roots: z.array(z.string()).default([]),
    target_task_filter: z.boolean().default(true),
    progress: z.boolean().default(false),
    evidence_log: z.boolean().default(true),
    evidence_max_chars: count(200).default(4000),
    redact_secrets: z.boolean().default(true),
    multi_skill_fanout: z.boolean().nullable().default(null),
    /** Old name of multi_skill_fanout, used when that is not set. */
    multi_skill_report: z.boolean().default(false),
    auto_adopt: z.boolean().default(false),
    managed_skill_name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "a single folder name")
      .default("skillopt-sleep-learned"),
    seed: z.number().int().default(42),
    /** Explicit state folder (default: see `stateDirOf`). */
    state_dir: z.string().default(""),
  })
  .superRefine((c, ctx) => {
    if (c.val_fraction + c.test_fraction >= 1) {
      ctx.addIssue({
        code: "custom",
        path: ["val_fraction"],
        message: `val_fraction + test_fraction must be < 1 (got ${c.val_fraction} + ${c.test_fraction})`,
      });
    }
  });

export type SleepConfig = z.output<typeof SleepConfigSchema> & { readonly home: string };

const KEYS = Object.keys(SleepConfigSchema.shape);
export const CONFIG_FILE_NAMES = ["config.json", "config.yaml", "config.yml"] as const;

export interface LoadSleepConfigOptions {
  /** The user's home folder (`os.homedir()` in the CLI; a temp folder in tests). */
  home: string;
  /** The working directory: the default project and the base of relative override paths. */
  cwd: string;
  /** Explicit values; `undefined` entries are ignored. */
  overrides?: Record<string, unknown>;
}

/** The user's config file, or null. */
export function findConfigFile(home: string): string | null {
  for (const name of CONFIG_FILE_NAMES) {
    const p = join(home, ".skillopt-sleep", name);
    if (existsSync(p)) return p;
  }
  return null;
}

function readConfigFile(path: string): Record<string, unknown> {
  let raw: unknown;
  try {
    const text = readFileSync(path, "utf8");
    raw = path.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new AppError("INVALID_REQUEST", `${path}: cannot parse: ${(err as Error).message}`, { field: path });
  }
  if (raw === null || raw === undefined) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new AppError("INVALID_REQUEST", `${path}: expected a mapping of keys to values`, { field: path });
  }
  return raw as Record<string, unknown>;
}

function unknownKey(key: string, source: string): AppError {
  const hint = suggestKey(
    "",
    key,
    KEYS.map((k) => ({ leaf: k, dotted: k })),
  );
  const known = hint ? `did you mean '${hint}'?` : `known keys: ${KEYS.join(", ")}`;
  return new AppError("INVALID_REQUEST", `${source}: unknown key '${key}'; ${known}`, { field: key });
}

function absolute(p: string, base: string, home: string): string {
  if (p === "") return "";
  const expanded = p === "~" ? home : p.startsWith("~/") ? join(home, p.slice(2)) : p;
  return isAbsolute(expanded) ? resolve(expanded) : resolve(base, expanded);
}

/** Loads and validates the configuration; throws an AppError naming the key and source on bad input. */
export function loadSleepConfig(opts: LoadSleepConfigOptions): SleepConfig {
  const file = findConfigFile(opts.home);
  const fromFile = file ? readConfigFile(file) : {};
  const given = Object.fromEntries(Object.entries(opts.overrides ?? {}).filter(([, v]) => v !== undefined));
  for (const [source, values] of [
    [file ?? "config", fromFile],
    ["options", given],
  ] as const) {
    const unknown = Object.keys(values).find((k) => !KEYS.includes(k));
    if (unknown !== undefined) throw unknownKey(unknown, source);
  }
  const merged: Record<string, unknown> = { ...fromFile, ...given };
  if (merged.val_fraction === undefined && typeof merged.holdout_fraction === "number")
    merged.val_fraction = merged.holdout_fraction;
  const parsed = SleepConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? "");
    const field = issue.path.map(String).join(".");
    const source = key in given ? "options" : (file ?? "config");
    throw new AppError("INVALID_REQUEST", `${source}: ${field}: ${issue.message}`, { field });
  }
  const c = parsed.data;
  const project = absolute(c.invoked_project, opts.cwd, opts.home) || resolve(opts.cwd);
  return {
    ...c,
    home: opts.home,
    claude_home: absolute(c.claude_home, opts.cwd, opts.home) || join(opts.home, ".claude"),
    codex_home: absolute(c.codex_home, opts.cwd, opts.home) || join(opts.home, ".codex"),
    pi_home: absolute(c.pi_home, opts.cwd, opts.home) || join(opts.home, ".pi"),
    cursor_home: absolute(c.cursor_home, opts.cwd, opts.home) || join(opts.home, ".cursor"),
    invoked_project: project,
    target_skill_path: absolute(c.target_skill_path, project, opts.home),
    skill_roots: c.skill_roots.map((r) => absolute(r, project, opts.home)),
    state_dir: absolute(c.state_dir, opts.cwd, opts.home),
  };
}

/**
 * The state folder: explicit `state_dir`; else, when `claude_home` is not the default, a `.skillopt-sleep`
 * beside it (so one `--claude-home` isolates transcripts and state together); else `<home>/.skillopt-sleep`.
 */
export function stateDirOf(cfg: SleepConfig): string {
  if (cfg.state_dir) return cfg.state_dir;
  if (resolve(cfg.claude_home) !== resolve(join(cfg.home, ".claude")))
    return join(dirname(resolve(cfg.claude_home)), ".skillopt-sleep");
  return join(cfg.home, ".skillopt-sleep");
}

/** The managed live skill: `target_skill_path`, else `<claude_home>/skills/<managed_skill_name>/SKILL.md`. */
export function managedSkillPathOf(cfg: SleepConfig): string {
  return cfg.target_skill_path || join(cfg.claude_home, "skills", cfg.managed_skill_name, "SKILL.md");
}

/** The project's memory document. */
export function memoryPathOf(cfg: SleepConfig): string {
  return join(cfg.invoked_project, "CLAUDE.md");
}

const GREEDY = new Set(["off", "none", "false", "greedy"]);
export function isGateOff(gateMode: string): boolean {
  return GREEDY.has(gateMode.trim().toLowerCase());
}

/** Fan-out is on when `multi_skill_fanout` says so, else when the old `multi_skill_report` does. */
export function fanoutEnabled(cfg: SleepConfig): boolean {
  return cfg.multi_skill_fanout ?? cfg.multi_skill_report;
}

/** Session cap of one harvest. */
export function sessionLimitOf(cfg: SleepConfig): number {
  return cfg.max_sessions_per_night || cfg.max_tasks_per_night * 3;
}
