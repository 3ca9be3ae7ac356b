/**
 * `skillopt sleep <run|dry-run|status|adopt|harvest|schedule|unschedule|experiment>` (spec D.13): flags → SkillOpt-Sleep
 * config, then the lib/sleep call, then text or `--json` output and the exit status.
 */
import { parseArgs } from "node:util";
import { AppError } from "../../lib/errors";
import { COMMON_OPTIONS, say, type Flags } from "./sleep-args";
import { runSleepAdopt, runSleepHarvest, runSleepStatus } from "./sleep-misc";
import { runSleepExperiment } from "./sleep-experiment";
import { runSleepInstallCodexSkill, runSleepInstallCursorPlugin } from "./sleep-install";
import { runSleepMcp } from "./sleep-mcp";
import { runSleepRun } from "./sleep-run";
import { runSleepSchedule, runSleepUnschedule } from "./sleep-schedule";

export const SLEEP_USAGE = `usage: npm run skillopt -- sleep <command> [options]

commands:
  run          harvest → mine → replay → gate → stage (nothing live changes without adopt)
  dry-run      the same without staging, adoption or saved state
  status       the night counter and the latest staged proposal
  adopt        apply a staged proposal (backup kept; refused when the live file changed)
  harvest      show the tasks that would be mined (--output FILE writes a tasks file to review)
  schedule     install the nightly crontab line for --project (default 03:17; it only stages)
  unschedule   remove the project's crontab line (--all: every managed line)
  mcp          serve the sleep_* tools over MCP on stdio (for Copilot, Cursor, Claude Code, any MCP host)
  install-codex-skill   copy the skillopt-sleep skill to ~/.agents/skills for Codex (--force replaces an edited copy)
  install-cursor-plugin copy the Cursor plugin to ~/.cursor/plugins/local/skillopt-sleep (--force likewise)
  experiment   the deterministic experiment (--persona researcher|programmer --assert-improves)

common options:
  --project DIR  --scope all|invoked  --backend mock|claude|codex|copilot|cursor|pi|opencode|openai|anthropic|openai-compatible|azure_openai|handoff
  --model NAME  --codex-path FILE  --claude-home DIR (also isolates state)  --codex-home DIR  --cursor-home DIR  --pi-home DIR
  --source claude|codex|copilot|copilot_cli|cursor|pi|opencode|auto  --vscode-workspace-storage DIR
  --copilot-cli-session-store FILE  --opencode-db FILE  --lookback-hours N (0 = all)  --edit-budget N
  --max-sessions N  --max-tasks N  --target-skill-path FILE  --skill-root DIR (repeatable)  --tasks-file FILE
  --progress  --auto-adopt  --preferences TEXT  --json
run, dry-run, adopt: --no-db (do not record in the dashboard's database, DATABASE_URL)
adopt:       --staging DIR  --skill NAME (repeatable) | --all-skills | --legacy
harvest:     --output FILE
schedule:    --hour 0-23 (3)  --minute 0-59 (17)  --backend NAME  --auto-adopt
unschedule:  --all
experiment:  --persona researcher|programmer  --nights N  --backend NAME  --model NAME  --edit-budget N
             --limit-tasks N  --json  --assert-improves
`;

const str = { type: "string" } as const;
const bool = { type: "boolean" } as const;

export async function runSleepCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
    process.stdout.write(SLEEP_USAGE);
    return sub ? 0 : 2;
  }
  const parse = (extra: Record<string, { type: "string" | "boolean"; multiple?: boolean }> = {}) =>
    parseArgs({ args: rest, options: { ...COMMON_OPTIONS, ...extra }, strict: true, allowPositionals: false })
      .values as Flags;
  switch (sub) {
    case "run":
      return runSleepRun(parse({ "no-db": bool }), false);
    case "dry-run":
      return runSleepRun(parse({ "no-db": bool }), true);
    case "status":
      return runSleepStatus(parse());
    case "adopt":
      return runSleepAdopt(
        parse({
          staging: str,
          skill: { type: "string", multiple: true },
          "all-skills": bool,
          legacy: bool,
          "no-db": bool,
        }),
      );
    case "harvest":
      return runSleepHarvest(parse({ output: str }));
    case "schedule":
      return runSleepSchedule(parse({ hour: str, minute: str }));
    case "unschedule":
      return runSleepUnschedule(parse({ all: bool }));
    case "mcp":
      if (rest.length > 0)
        throw new AppError("INVALID_REQUEST", "sleep mcp takes no options (each tool call carries its own)", {
          field: rest[0],
        });
      return runSleepMcp();
    case "install-codex-skill":
    case "install-cursor-plugin": {
      const flags = parseArgs({
        args: rest,
        options: { force: bool, json: bool },
        strict: true,
        allowPositionals: false,
      }).values as Flags;
      return sub === "install-codex-skill" ? runSleepInstallCodexSkill(flags) : runSleepInstallCursorPlugin(flags);
    }
    case "experiment":
      return runSleepExperiment(parse({ persona: str, nights: str, "limit-tasks": str, "assert-improves": bool }));
    default:
      process.stderr.write(`unknown sleep command '${say(sub)}'\n${SLEEP_USAGE}`);
      return 2;
  }
}
