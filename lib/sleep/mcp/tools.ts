/**
 * The seven `sleep_*` tools of the MCP server (spec D.15), each a zod input schema and the `sleep`
 * command line it stands for. Every tool runs the CLI with `--json`, so an MCP host sees exactly what
 * `npm run skillopt -- sleep … --json` prints, with the same refusals and exit codes.
 */
import { z } from "zod";

const path = z.string().min(1).max(4096);
const count = z.number().int().min(1).max(100_000);

/** Options shared by run, dry-run and harvest (the common flags of spec D.13 an agent needs). */
const night = {
  project: path.optional().describe("Project folder (default: the folder the MCP server was started in)"),
  scope: z.enum(["all", "invoked"]).optional().describe("Harvest every project's sessions, or only this project's"),
  backend: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe(
      "mock, claude, codex, copilot, cursor, pi, opencode, openai, anthropic, openai-compatible, azure_openai or handoff",
    ),
  model: z.string().min(1).max(200).optional(),
  source: z
    .enum(["claude", "codex", "copilot", "copilot_cli", "cursor", "pi", "opencode", "auto"])
    .optional()
    .describe("Which agent's transcripts to read"),
  claude_home: path.optional().describe("Read Claude Code transcripts from here (also isolates Sleep's state)"),
  lookback_hours: z
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .optional()
    .describe("Harvest window in hours; 0 = the whole history"),
  max_sessions: count.optional(),
  max_tasks: count.optional(),
  edit_budget: count.optional(),
  target_skill_path: path.optional().describe("The skill file to improve"),
  tasks_file: path.optional().describe("A reviewed tasks file to replay instead of harvesting"),
};

export const SLEEP_TOOLS = {
  sleep_status: {
    description:
      "SkillOpt-Sleep status: the night counter, recent nights and the latest staged proposal for a project.",
    input: { project: night.project },
  },
  sleep_dry_run: {
    description:
      "Harvest, mine, replay and gate one night without staging, adopting or saving state; returns the night's JSON.",
    input: night,
  },
  sleep_run: {
    description:
      "Run one SkillOpt-Sleep night: the improved skill is staged for review; nothing live changes unless auto_adopt is set (managed pair only).",
    input: { ...night, auto_adopt: z.boolean().optional() },
  },
  sleep_adopt: {
    description:
      "Adopt a staged proposal into the live skill files (a backup is kept; refused when the live file changed since staging).",
    input: {
      project: night.project,
      staging: path.optional().describe("Staging folder (default: the latest night)"),
      skills: z.array(z.string().min(1).max(200)).max(200).optional().describe("Adopt only these per-skill proposals"),
      all_skills: z.boolean().optional(),
      legacy: z.boolean().optional().describe("Adopt the managed proposal of a fan-out night"),
    },
  },
  sleep_harvest: {
    description:
      "Show the tasks SkillOpt-Sleep would mine from recent sessions; with output, write them to a tasks file to review.",
    input: { ...night, output: path.optional() },
  },
  sleep_schedule: {
    description: "Install (or move) the nightly crontab line that runs sleep for a project; it only stages proposals.",
    input: {
      project: night.project,
      backend: night.backend,
      hour: z.number().int().min(0).max(23).optional().describe("Default 3"),
      minute: z.number().int().min(0).max(59).optional().describe("Default 17"),
      auto_adopt: z.boolean().optional(),
    },
  },
  sleep_unschedule: {
    description: "Remove the project's nightly crontab line, or every SkillOpt-Sleep line with all.",
    input: { project: night.project, all: z.boolean().optional() },
  },
} as const;

export type SleepToolName = keyof typeof SLEEP_TOOLS;

const COMMAND: Record<SleepToolName, string> = {
  sleep_status: "status",
  sleep_dry_run: "dry-run",
  sleep_run: "run",
  sleep_adopt: "adopt",
  sleep_harvest: "harvest",
  sleep_schedule: "schedule",
  sleep_unschedule: "unschedule",
};

/** Argument name → flag, where it is not just `--` + the name with `_` → `-`. */
const FLAG: Record<string, string> = { skills: "--skill", max_sessions: "--max-sessions", max_tasks: "--max-tasks" };

/** The `sleep` arguments for a tool call; the project defaults to `cwd`. */
export function sleepArgs(tool: SleepToolName, input: Record<string, unknown>, cwd: string): string[] {
  const args = [COMMAND[tool]];
  const withProject: Record<string, unknown> = { project: cwd, ...input };
  for (const [key, value] of Object.entries(withProject)) {
    if (value === undefined || value === false) continue;
    const flag = FLAG[key] ?? `--${key.replace(/_/g, "-")}`;
    if (value === true) args.push(flag);
    else if (Array.isArray(value)) for (const v of value) args.push(flag, String(v));
    else args.push(flag, String(value));
  }
  args.push("--json");
  return args;
}
