/**
 * File primitives with the guarantees staging and adoption rely on: atomic replacement (a reader sees the
 * old bytes or the new ones, never a mix), exclusive creation, symlink detection and content hashes.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** True when `path` exists as a symbolic link (not followed). */
export function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false; // absent: not a link
  }
}

/** True when `path` exists at all, a dangling link included. */
export function lexists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Writes `data` to a fresh temporary file beside `path`, flushes it, then renames it over `path`. */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(tmp, "wx", mode);
  try {
    writeSync(fd, typeof data === "string" ? Buffer.from(data, "utf8") : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Creates `path` with `data`; fails when it already exists (EEXIST), so two writers never share a file. */
export function writeFileExclusive(path: string, data: string): void {
  const fd = openSync(path, "wx", 0o644);
  try {
    writeSync(fd, Buffer.from(data, "utf8"));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Where `path` resolves now: the real path of its nearest existing ancestor joined with the rest (it need not exist). */
export function resolvedLocation(path: string): string {
  let dir = path;
  const rest: string[] = [];
  while (!existsSync(dir)) {
    rest.unshift(basename(dir));
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return join(realpathSync(dir), ...rest);
}
