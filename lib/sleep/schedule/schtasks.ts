/**
 * `sleep schedule` on Windows (spec D.12), as pure text: one Task Scheduler task per project, named
 * `SkillOpt-Sleep-<sha256(project)[:20]>` so a re-schedule replaces that project's task and nothing else,
 * running a PowerShell helper written to `<project>/.skillopt-sleep/run.ps1` (a task's command line is
 * capped at 261 characters, a path-heavy command is not). As with cron, only the project, backend, time
 * and auto-adopt travel; everything else comes from the user's config file when the night runs.
 */
import { AppError } from "../../errors";
import { sha256Hex } from "../fs-safe";
import { checkTime, type CronEntry } from "./crontab";

export const TASK_PREFIX = "SkillOpt-Sleep-";

export function taskName(project: string): string {
  return `${TASK_PREFIX}${sha256Hex(project).slice(0, 20)}`;
}

/** A value that goes into the task or its script: non-empty, no control characters, no double quote. */
export function checkTaskText(field: string, value: string): void {
  if (value === "") throw new AppError("INVALID_REQUEST", `${field} must not be empty`, { field });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw new AppError("INVALID_REQUEST", `${field} cannot contain control characters`, { field });
  if (value.includes('"'))
    throw new AppError("INVALID_REQUEST", `${field} cannot contain '"' (the task's command line quotes with it)`, {
      field,
    });
}

/** PowerShell literal string: single quotes, a quote inside doubled. */
export function psQuote(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** The helper script the task runs: make the log folder, go to this checkout, run the night, append to cron.log. */
export function runScript(e: CronEntry, sep: string): string {
  checkTime(e.hour, e.minute);
  for (const [field, value] of [
    ["project", e.project],
    ["repository", e.repo],
    ["node", e.node],
    ["backend", e.backend],
  ] as const)
    checkTaskText(field, value);
  const logDir = `${e.project}${sep}.skillopt-sleep`;
  const args = ["--import", "tsx", "scripts/cli.ts", "sleep", "run", "--project", e.project, "--scope", "invoked"];
  args.push("--backend", e.backend, ...(e.autoAdopt ? ["--auto-adopt"] : []));
  return [
    "# Written by `skillopt sleep schedule`; `skillopt sleep unschedule` removes the task that runs it.",
    `New-Item -ItemType Directory -Force -Path ${psQuote(logDir)} | Out-Null`,
    `Set-Location -LiteralPath ${psQuote(e.repo)}`,
    `& ${psQuote(e.node)} ${args.map(psQuote).join(" ")} *>> ${psQuote(`${logDir}${sep}cron.log`)}`,
    "exit $LASTEXITCODE",
    "",
  ].join("\r\n");
}

export const hhmm = (e: { hour: number; minute: number }): string =>
  `${String(e.hour).padStart(2, "0")}:${String(e.minute).padStart(2, "0")}`;

/** `schtasks` arguments creating (or, with /F, replacing) the project's daily task. */
export function createArgs(e: CronEntry, scriptPath: string): string[] {
  checkTaskText("project", e.project);
  const command = `powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -File "${scriptPath}"`;
  return ["/Create", "/SC", "DAILY", "/TN", taskName(e.project), "/TR", command, "/ST", hhmm(e), "/F"];
}

export function deleteArgs(name: string): string[] {
  return ["/Delete", "/TN", name, "/F"];
}

/** Managed task names in `schtasks /Query /FO CSV /NH` output (the first column, "\Folder\Name"). */
export function managedTasks(csv: string): string[] {
  const names = new Set<string>();
  for (const line of csv.split(/\r?\n/)) {
    const first = /^"([^"]*)"/.exec(line.trim())?.[1] ?? "";
    const name = first.split("\\").pop() ?? "";
    if (name.startsWith(TASK_PREFIX)) names.add(name);
  }
  return [...names].sort();
}
