/**
 * What crontab and Task Scheduler scheduling share: the outcome shape, and finding the scheduler binary on
 * the PATH the caller passes in (Windows: `;` separated, `.exe` and PATHEXT tried).
 */
import { accessSync, constants, statSync } from "node:fs";
import { join, posix, win32 } from "node:path";

export type ScheduleEnv = Record<string, string | undefined>;

export interface ScheduleOutcome {
  ok: boolean;
  /** What happened, or why not, in one or two sentences. */
  message: string;
  /** The project's crontab line, or the schtasks command on Windows (schedule only). */
  line?: string;
  /** Managed lines (Windows: managed task names) after the change. */
  scheduled: string[];
  /** Managed lines removed (unschedule only). */
  removed?: number;
}

export function findOnPath(name: string, env: ScheduleEnv, platform: NodeJS.Platform): string | null {
  const win = platform === "win32";
  const dirs = (env.PATH ?? env.Path ?? "").split(win ? win32.delimiter : posix.delimiter).filter(Boolean);
  const exts = win ? ["", ...(env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").filter(Boolean)] : [""];
  for (const dir of dirs) {
    for (const ext of exts) {
      const p = join(dir, `${name}${ext.toLowerCase()}`);
      try {
        accessSync(p, constants.X_OK);
        if (statSync(p).isFile()) return p;
      } catch {
        // not in this folder
      }
    }
  }
  return null;
}
