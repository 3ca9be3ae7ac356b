/** Finding a scheduler binary on the PATH the caller passes in (Windows: `;` separated, `.exe` and PATHEXT tried). */
import { accessSync, constants, statSync } from "node:fs";
import { join, posix, win32 } from "node:path";

export type ScheduleEnv = Record<string, string | undefined>;

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
