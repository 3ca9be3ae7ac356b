/**
 * `sleep schedule` / `sleep unschedule` against the user's crontab (spec D.12): read it with
 * `crontab -l`, rewrite only the managed block, write it back with `crontab -`. The `crontab` binary is
 * looked up on the PATH the caller passes in. A crontab that cannot be read (anything other than "no
 * crontab for user") is never overwritten. On Windows (the platform is passed in) the Task Scheduler is
 * used instead (./windows.ts).
 */
import { spawnSync } from "node:child_process";
import { cronLine, splitManaged, withEntry, withoutEntry, type CronEntry } from "./crontab";
import { findOnPath, type ScheduleEnv, type ScheduleOutcome } from "./path-lookup";
import { scheduleWindows, unscheduleWindows } from "./windows";

export type { ScheduleEnv, ScheduleOutcome } from "./path-lookup";

class CrontabError extends Error {}

function readCrontab(bin: string, env: ScheduleEnv): string {
  const r = spawnSync(bin, ["-l"], { env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 30_000 });
  if (r.error) throw new CrontabError(`crontab -l failed: ${r.error.message}`);
  if (r.status === 0) return r.stdout;
  if (/no crontab/i.test(r.stderr)) return "";
  throw new CrontabError(
    `crontab -l exited with code ${r.status}: ${r.stderr.trim().split("\n").pop() ?? ""}; the crontab was left as it is`,
  );
}

function writeCrontab(bin: string, env: ScheduleEnv, text: string): void {
  const r = spawnSync(bin, ["-"], { env: env as NodeJS.ProcessEnv, encoding: "utf8", input: text, timeout: 30_000 });
  if (r.error) throw new CrontabError(`crontab - failed: ${r.error.message}`);
  if (r.status !== 0)
    throw new CrontabError(`crontab - exited with code ${r.status}: ${r.stderr.trim().split("\n").pop() ?? ""}`);
}

const MISSING = "crontab was not found on PATH";

/** Installs or replaces the project's nightly line. Bad input throws (AppError); a crontab failure is `ok: false`. */
export function schedule(entry: CronEntry, env: ScheduleEnv, platform: NodeJS.Platform): ScheduleOutcome {
  if (platform === "win32") return scheduleWindows(entry, env);
  const line = cronLine(entry);
  const bin = findOnPath("crontab", env, platform);
  if (!bin)
    return { ok: false, message: `${MISSING}; add this line to your scheduler by hand:\n${line}`, line, scheduled: [] };
  try {
    const next = withEntry(readCrontab(bin, env), entry.project, line);
    writeCrontab(bin, env, next);
    const hhmm = `${String(entry.hour).padStart(2, "0")}:${String(entry.minute).padStart(2, "0")}`;
    return {
      ok: true,
      message: `scheduled nightly at ${hhmm} for ${entry.project} (backend=${entry.backend}${entry.autoAdopt ? ", auto-adopt" : ""}); log: ${entry.project}/.skillopt-sleep/cron.log. It only stages proposals${entry.autoAdopt ? " (auto-adopt applies the managed pair only)" : "; adopt stays manual"}.`,
      line,
      scheduled: splitManaged(next).managed,
    };
  } catch (err) {
    if (err instanceof CrontabError)
      return { ok: false, message: `${err.message}. Line to add by hand:\n${line}`, line, scheduled: [] };
    throw err;
  }
}

/** Removes the project's line (`project`), or the whole managed block (`null`). */
export function unschedule(project: string | null, env: ScheduleEnv, platform: NodeJS.Platform): ScheduleOutcome {
  if (platform === "win32") return unscheduleWindows(project, env);
  const bin = findOnPath("crontab", env, platform);
  if (!bin) return { ok: false, message: `${MISSING}; nothing to remove`, scheduled: [] };
  try {
    const current = readCrontab(bin, env);
    const { text, removed } = withoutEntry(current, project);
    if (text !== current) writeCrontab(bin, env, text);
    const what = project === null ? "every managed entry" : `the entry for ${project}`;
    return {
      ok: true,
      message:
        removed > 0
          ? `removed ${what} (${removed} line${removed === 1 ? "" : "s"})`
          : `nothing to remove: no managed entry ${project === null ? "exists" : `for ${project}`}`,
      removed,
      scheduled: splitManaged(text).managed,
    };
  } catch (err) {
    if (err instanceof CrontabError) return { ok: false, message: err.message, scheduled: [] };
    throw err;
  }
}
