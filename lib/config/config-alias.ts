/**
 * Config folders named after a benchmark's alias: `configs/livemathematicianbench/default.yaml` (the
 * original's folder name) reads `configs/livemath/default.yaml`. Only a path that does not exist is
 * rewritten, and only to one that does, so a real folder of that name always wins.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { canonicalBenchmark } from "../envs/catalog";

/** `path` with its first folder that is a benchmark alias replaced by the canonical name, when that file exists. */
export function aliasedConfigPath(path: string, cwd = process.cwd()): string {
  if (existsSync(resolve(cwd, path))) return path;
  const parts = path.split(/([\\/])/);
  for (let i = 0; i < parts.length - 1; i += 2) {
    const canonical = canonicalBenchmark(parts[i]!);
    if (!canonical || canonical === parts[i]) continue;
    const candidate = [...parts.slice(0, i), canonical, ...parts.slice(i + 1)].join("");
    if (existsSync(resolve(cwd, candidate))) return candidate;
  }
  return path;
}
