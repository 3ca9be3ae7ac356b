/**
 * Discarding a staged night: its folder under `<project>/.skillopt-sleep/staging/` is removed, and nothing
 * else. The folder must be a night folder directly inside the project's staging root; neither the root
 * nor the folder may be a symbolic link (a link could point the removal at anything), and the removal
 * itself never follows links inside the folder (Node's recursive rm unlinks them). The live skill and
 * memory are never touched: they are outside the staging root by construction.
 */
import { existsSync, lstatSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { isSymlink, lexists } from "../fs-safe";
import { NIGHT_DIR, StagingError, stagingRoot } from "./root";

const LATEST = ".latest";

/**
 * Checks that `dir` may be removed as `project`'s staged night; throws a StagingError naming the path
 * otherwise. Returns the absolute folder, or null when it is already gone (discarding twice is harmless).
 */
export function checkDiscardable(project: string, dir: string): string | null {
  const root = stagingRoot(resolve(project));
  const target = resolve(dir);
  if (dirname(target) !== root || !NIGHT_DIR.test(basename(target)))
    throw new StagingError(`${dir}: not a night folder of ${root}; nothing removed`);
  for (const p of [dirname(root), root, target]) {
    if (isSymlink(p)) throw new StagingError(`${p}: a symbolic link; nothing removed`);
  }
  if (!lexists(target)) return null;
  if (!lstatSync(target).isDirectory()) throw new StagingError(`${target}: not a folder; nothing removed`);
  const expected = join(realpathSync(project), ".skillopt-sleep", "staging");
  if (realpathSync(root) !== expected)
    throw new StagingError(`${root}: the staging root passes through a symbolic link; nothing removed`);
  return target;
}

/** Removes a checked night folder; the `.latest` pointer is dropped when it named that night. */
export function removeStagedNight(project: string, dir: string): { removed: boolean } {
  const target = checkDiscardable(project, dir);
  if (!target) return { removed: false };
  rmSync(target, { recursive: true, force: true });
  const pointer = join(dirname(target), LATEST);
  if (existsSync(pointer) && !isSymlink(pointer) && readFileSync(pointer, "utf8").trim() === basename(target))
    rmSync(pointer, { force: true });
  return { removed: true };
}
