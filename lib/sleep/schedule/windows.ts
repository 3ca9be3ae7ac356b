/**
 * `sleep schedule` / `sleep unschedule` on Windows: the project's Task Scheduler task through `schtasks`
 * (`/Create /SC DAILY /TN … /TR … /ST HH:MM /F`, `/Delete /TN … /F`), found on the PATH the caller passes.
 * Bad input throws before anything is written; a missing or failing `schtasks` is `ok: false`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join, sep } from "node:path";
import { isSymlink, writeFileAtomic } from "../fs-safe";
import type { CronEntry } from "./crontab";
import { findOnPath, type ScheduleEnv, type ScheduleOutcome } from "./path-lookup";
import { createArgs, deleteArgs, hhmm, managedTasks, runScript, taskName } from "./schtasks";

class SchtasksError extends Error {}

function schtasks(bin: string, args: string[], env: ScheduleEnv): string {
  const r = spawnSync(bin, args, { env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 30_000 });
  if (r.error) throw new SchtasksError(`schtasks ${args[0]} failed: ${r.error.message}`);
  if (r.status !== 0)
    throw new SchtasksError(
      `schtasks ${args[0]} exited with code ${r.status}: ${(r.stderr || r.stdout).trim().split("\n").pop() ?? ""}`,
    );
  return r.stdout;
}

const MISSING = "schtasks was not found on PATH (it ships with Windows, in System32)";
const scriptOf = (project: string) => join(project, ".skillopt-sleep", "run.ps1");

function listManaged(bin: string, env: ScheduleEnv): string[] {
  return managedTasks(schtasks(bin, ["/Query", "/FO", "CSV", "/NH"], env));
}

export function scheduleWindows(entry: CronEntry, env: ScheduleEnv): ScheduleOutcome {
  const script = runScript(entry, sep);
  const path = scriptOf(entry.project);
  const args = createArgs(entry, path);
  const bin = findOnPath("schtasks", env, "win32");
  const byHand = `schtasks ${args.map((a) => (/\s/.test(a) ? `"${a.replace(/"/g, '\\"')}"` : a)).join(" ")}`;
  if (!bin) return { ok: false, message: `${MISSING}; nothing was scheduled`, line: byHand, scheduled: [] };
  try {
    if (isSymlink(path)) throw new SchtasksError(`${path} is a symbolic link; refusing to write through it`);
    writeFileAtomic(path, script);
    schtasks(bin, args, env);
    return {
      ok: true,
      message: `scheduled task ${taskName(entry.project)} daily at ${hhmm(entry)} for ${entry.project} (backend=${entry.backend}${entry.autoAdopt ? ", auto-adopt" : ""}); it runs ${path}; log: ${join(entry.project, ".skillopt-sleep", "cron.log")}. It only stages proposals${entry.autoAdopt ? " (auto-adopt applies the managed pair only)" : "; adopt stays manual"}.`,
      line: byHand,
      scheduled: listManaged(bin, env),
    };
  } catch (err) {
    if (err instanceof SchtasksError)
      return { ok: false, message: `${err.message}. Command to run by hand:\n${byHand}`, line: byHand, scheduled: [] };
    throw err;
  }
}

/** Deletes the project's task (and its helper script), or every managed task when `project` is null. */
export function unscheduleWindows(project: string | null, env: ScheduleEnv): ScheduleOutcome {
  const bin = findOnPath("schtasks", env, "win32");
  if (!bin) return { ok: false, message: `${MISSING}; nothing to remove`, scheduled: [] };
  try {
    const before = listManaged(bin, env);
    const doomed = project === null ? before : before.filter((n) => n === taskName(project));
    for (const name of doomed) schtasks(bin, deleteArgs(name), env);
    if (project !== null && existsSync(scriptOf(project)) && !isSymlink(scriptOf(project)))
      rmSync(scriptOf(project), { force: true });
    const what = project === null ? "every managed task" : `the task for ${project}`;
    return {
      ok: true,
      message:
        doomed.length > 0
          ? `removed ${what} (${doomed.join(", ")})`
          : `nothing to remove: no managed task ${project === null ? "exists" : `for ${project}`}`,
      removed: doomed.length,
      scheduled: before.filter((n) => !doomed.includes(n)),
    };
  } catch (err) {
    if (err instanceof SchtasksError) return { ok: false, message: err.message, scheduled: [] };
    throw err;
  }
}
