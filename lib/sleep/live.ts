/**
 * The live documents of a night, read once at its start (spec D.1 step 3): exact text, sha256 of the
 * bytes and the real path. Adopt later refuses to write when the file no longer has these bytes. A
 * missing file is an empty baseline; an unreadable or non-UTF-8 one stops the night naming the path,
 * because treating it as empty could later overwrite content the night never read.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { resolvedLocation, sha256Hex } from "./fs-safe";
import { StagingError } from "./staging/root";

export interface LiveBaseline {
  path: string;
  text: string;
  /** "" when the file does not exist. */
  sha256: string;
  realpath: string;
}

export function readLiveBaseline(path: string, label: "skill" | "memory"): LiveBaseline {
  const abs = resolve(path);
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { path: abs, text: "", sha256: "", realpath: resolvedLocation(abs) };
    throw new StagingError(`could not read the live ${label} ${abs}: ${code ?? (err as Error).message}`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new StagingError(`the live ${label} is not valid UTF-8: ${abs}`);
  }
  return { path: abs, text, sha256: sha256Hex(bytes), realpath: resolvedLocation(abs) };
}
