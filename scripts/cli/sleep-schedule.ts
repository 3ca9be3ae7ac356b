/**
 * `sleep schedule` / `sleep unschedule` (spec D.12/D.13): the managed crontab block, or on Windows the
 * project's Task Scheduler task. Exit 0 when the schedule was updated, 1 when it could not be (no
 * `crontab`/`schtasks`, or it failed: what to run by hand is printed), 2 for bad input (an hour out of
 * range, control characters, an unknown backend).
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { resolveSleepBackend } from "../../lib/sleep";
import { schedule, unschedule, type ScheduleOutcome } from "../../lib/sleep/schedule/system";
import { configOf, intFlag, printJson, say, type Flags } from "./sleep-args";

/** This checkout: the folder holding `scripts/cli.ts`. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

function report(f: Flags, r: ScheduleOutcome, project: string): number {
  if (f.json) {
    printJson({
      ok: r.ok,
      project,
      message: r.message,
      ...(r.line !== undefined ? { line: r.line } : {}),
      ...(r.removed !== undefined ? { removed: r.removed } : {}),
      scheduled: r.scheduled,
    });
    return r.ok ? 0 : 1;
  }
  const out = r.message.split("\n").map((l, i) => (i === 0 ? `[sleep] ${say(l)}` : say(l)));
  if (r.ok && r.scheduled.length > 0)
    out.push("[sleep] currently scheduled:", ...r.scheduled.map((l) => `   ${say(l.slice(0, 160))}`));
  process.stdout.write(`${out.join("\n")}\n`);
  return r.ok ? 0 : 1;
}

export async function runSleepSchedule(f: Flags): Promise<number> {
  const cfg = configOf(f);
  const hour = intFlag(f, "hour") ?? 3;
  const minute = intFlag(f, "minute") ?? 17;
  resolveSleepBackend(cfg.backend, "backend");
  const r = schedule(
    {
      project: cfg.invoked_project,
      backend: cfg.backend,
      hour,
      minute,
      autoAdopt: f["auto-adopt"] === true,
      repo: REPO_ROOT,
      node: process.execPath,
    },
    process.env,
    process.platform,
  );
  return report(f, r, cfg.invoked_project);
}

export async function runSleepUnschedule(f: Flags): Promise<number> {
  const cfg = configOf(f);
  const all = f.all === true;
  return report(f, unschedule(all ? null : cfg.invoked_project, process.env, process.platform), cfg.invoked_project);
}
