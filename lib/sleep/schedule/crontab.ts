/**
 * The managed crontab block of `sleep schedule` (spec D.12), as pure text operations: one line per
 * project between two fixed marker comments, each ending with the sha256 of the project's absolute path
 * so a re-schedule replaces that project's line and nothing else. Lines outside the block are kept
 * byte for byte. Only the project, backend, time and auto-adopt travel in the line; everything else comes
 * from the user's config file when the night runs.
 */
import { isAbsolute } from "node:path";
import { AppError } from "../../errors";
import { sha256Hex } from "../fs-safe";

export const CRON_BEGIN = "# >>> skillopt-sleep (managed) >>>";
export const CRON_END = "# <<< skillopt-sleep (managed) <<<";

export interface CronEntry {
  /** Absolute project folder. */
  project: string;
  backend: string;
  hour: number;
  minute: number;
  autoAdopt: boolean;
  /** Absolute path of this checkout (the line runs `scripts/cli.ts` from there). */
  repo: string;
  /** Absolute path of the node binary (cron's PATH rarely has it). */
  node: string;
}

/**
 * A value that goes into a crontab line: non-empty, no control characters (a newline would start a new
 * cron entry) and no `%` (cron turns it into a newline and feeds the rest to stdin).
 */
export function checkCronText(field: string, value: string): void {
  if (value === "") throw new AppError("INVALID_REQUEST", `${field} must not be empty`, { field });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw new AppError("INVALID_REQUEST", `${field} cannot contain control characters`, { field });
  if (value.includes("%"))
    throw new AppError("INVALID_REQUEST", `${field} cannot contain '%' (cron reads it as a line break)`, { field });
}

/** POSIX shell quoting: plain words as they are, anything else in single quotes. */
export function shQuote(value: string): string {
  return /^[A-Za-z0-9_/.,:@+=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export function projectMarker(project: string): string {
  return `# project-sha256=${sha256Hex(project)}`;
}

export function checkTime(hour: number, minute: number): void {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23)
    throw new AppError("INVALID_REQUEST", `--hour must be a whole number from 0 through 23 (got ${hour})`, {
      field: "--hour",
    });
  if (!Number.isInteger(minute) || minute < 0 || minute > 59)
    throw new AppError("INVALID_REQUEST", `--minute must be a whole number from 0 through 59 (got ${minute})`, {
      field: "--minute",
    });
}

/** The one crontab line that runs `sleep run` for a project every night at hour:minute. */
export function cronLine(e: CronEntry): string {
  checkTime(e.hour, e.minute);
  for (const [field, value] of [
    ["project", e.project],
    ["repository", e.repo],
    ["node", e.node],
  ] as const) {
    checkCronText(field, value);
    if (!isAbsolute(value))
      throw new AppError("INVALID_REQUEST", `${field} must be an absolute path (got '${value}')`, { field });
  }
  checkCronText("backend", e.backend);
  const logDir = `${e.project}/.skillopt-sleep`;
  const args = [
    e.node,
    "--import",
    "tsx",
    "scripts/cli.ts",
    "sleep",
    "run",
    "--project",
    e.project,
    "--scope",
    "invoked",
    "--backend",
    e.backend,
  ];
  if (e.autoAdopt) args.push("--auto-adopt");
  const command = `mkdir -p ${shQuote(logDir)}; cd ${shQuote(e.repo)} && ${args.map(shQuote).join(" ")} >> ${shQuote(`${logDir}/cron.log`)} 2>&1`;
  return `${e.minute} ${e.hour} * * *  ${command}  ${projectMarker(e.project)}`;
}

/** The crontab split into what is outside the managed block (kept verbatim) and the managed lines. */
export function splitManaged(crontab: string): { before: string[]; managed: string[]; after: string[] } {
  const lines = crontab.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const before: string[] = [];
  const managed: string[] = [];
  const after: string[] = [];
  let where: "before" | "in" | "after" = "before";
  for (const line of lines) {
    if (line.trim() === CRON_BEGIN) where = "in";
    else if (line.trim() === CRON_END && where === "in") where = "after";
    else if (where === "in") {
      if (line.trim() !== "") managed.push(line);
    } else (where === "before" ? before : after).push(line);
  }
  if (where === "in") {
    throw new AppError(
      "INVALID_REQUEST",
      `crontab: the line '${CRON_BEGIN}' has no matching '${CRON_END}'; fix the crontab by hand (crontab -e) first`,
      { field: "crontab" },
    );
  }
  return { before, managed, after };
}

function join(parts: { before: string[]; managed: string[]; after: string[] }): string {
  const block = parts.managed.length > 0 ? [CRON_BEGIN, ...parts.managed, CRON_END] : [];
  const lines = [...parts.before, ...block, ...parts.after];
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

/** The crontab with `line` as the project's one managed entry (an earlier entry for it is replaced). */
export function withEntry(crontab: string, project: string, line: string): string {
  const parts = splitManaged(crontab);
  const marker = projectMarker(project);
  const managed = parts.managed.filter((l) => !l.endsWith(marker));
  return join({ ...parts, managed: [...managed, line] });
}

/** The crontab without the project's entry, or without any managed entry when `project` is null. */
export function withoutEntry(crontab: string, project: string | null): { text: string; removed: number } {
  const parts = splitManaged(crontab);
  const marker = project === null ? null : projectMarker(project);
  const managed = marker === null ? [] : parts.managed.filter((l) => !l.endsWith(marker));
  return { text: join({ ...parts, managed }), removed: parts.managed.length - managed.length };
}
