/**
 * Where a night's proposals are staged (spec D.8): `<project>/.skillopt-sleep/staging/<YYYYmmdd-HHMMSS>[-N]/`.
 * A folder is reserved with an exclusive mkdir, so concurrent nights never share one. A staging root that
 * is (or passes through) a symbolic link is refused: it could redirect writes anywhere. A `.latest`
 * pointer names the newest published night.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { AppError } from "../../errors";
import { isSymlink, lexists, writeFileAtomic } from "../fs-safe";

/** A staging problem: the night is not staged (CLI exit 1, "staging refused"). */
export class StagingError extends AppError {
  constructor(message: string) {
    super("CONFLICT", message);
    this.name = "StagingError";
  }
}

export const NIGHT_DIR = /^(\d{8}-\d{6})(?:-(\d+))?$/;
const LATEST = ".latest";

export function stagingRoot(project: string): string {
  return join(project, ".skillopt-sleep", "staging");
}

/** Creates the staging root, refusing one that is a link or resolves anywhere but where it should. */
export function ensureStagingRoot(project: string): string {
  const root = stagingRoot(project);
  for (const p of [join(project, ".skillopt-sleep"), root]) {
    if (lexists(p) && (isSymlink(p) || !statSync(p).isDirectory()))
      throw new StagingError(`staging root is unsafe (a symbolic link or not a folder): ${p}`);
  }
  mkdirSync(root, { recursive: true });
  const expected = join(realpathSync(project), ".skillopt-sleep", "staging");
  if (realpathSync(root) !== expected) throw new StagingError(`staging root passes through a symbolic link: ${root}`);
  return root;
}

/** `YYYYmmdd-HHMMSS` in local time. */
export function nightStamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

/** Reserves a new night folder atomically (`-2`, `-3` … when the second is taken). */
export function reserveStagingDir(project: string, nowMs: number): string {
  const root = ensureStagingRoot(project);
  const base = join(root, nightStamp(nowMs));
  for (let i = 1; ; i++) {
    const dir = i === 1 ? base : `${base}-${i}`;
    try {
      mkdirSync(dir);
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
}

/** True for a reserved night folder directly under `root`, not a link, holding a manifest that is not a link. */
function isPublishedNight(root: string, name: string): boolean {
  if (!NIGHT_DIR.test(name)) return false;
  const dir = join(root, name);
  const manifest = join(dir, "manifest.json");
  return (
    !isSymlink(dir) && existsSync(dir) && statSync(dir).isDirectory() && !isSymlink(manifest) && existsSync(manifest)
  );
}

/** Makes `dir` the newest published night. */
export function publishLatest(dir: string): void {
  const root = join(dir, "..");
  const pointer = join(root, LATEST);
  if (isSymlink(pointer)) throw new StagingError(`latest-night pointer is a symbolic link: ${pointer}`);
  writeFileAtomic(pointer, `${basename(dir)}\n`, 0o600);
}

/** The newest published night of a project, or null: the `.latest` pointer, else the newest folder with a manifest. */
export function latestStaging(project: string): string | null {
  const root = stagingRoot(project);
  if (isSymlink(root) || !existsSync(root)) return null;
  const pointer = join(root, LATEST);
  if (existsSync(pointer) && !isSymlink(pointer)) {
    const name = readFileSync(pointer, "utf8").trim();
    if (isPublishedNight(root, name)) return join(root, name);
  }
  const nights = readdirSync(root).filter((n) => isPublishedNight(root, n));
  nights.sort((a, b) => {
    const ma = statSync(join(root, a, "manifest.json")).mtimeMs;
    const mb = statSync(join(root, b, "manifest.json")).mtimeMs;
    return mb - ma || (a < b ? 1 : -1);
  });
  return nights[0] ? join(root, nights[0]) : null;
}
