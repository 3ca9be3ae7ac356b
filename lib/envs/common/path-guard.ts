/**
 * How a run's config and data may name files. The CLI, run by the machine's own user, reads any path
 * (relative paths against the project root). A run from the dashboard reads only inside the allowed roots:
 * the path's real location (symlinks followed, also for parts that do not exist yet) must lie inside one
 * of them, so neither `../`, an absolute path nor a symlink planted inside a root leads out. Refusals name
 * the field and the path as written, never anything read from the file.
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import { AppError } from "../../errors";

/** Resolves the paths one run reads. */
export interface PathGuard {
  /** True when paths are confined to allowed roots (a dashboard run). */
  readonly confined: boolean;
  /**
   * The absolute path to read for `raw` (relative to the project root), or an `AppError` naming `field`
   * when the run may not read it. For a confined guard this is the real path that was checked.
   */
  input(field: string, raw: string): string;
  /** Like `input`, but a refusal is returned as its message instead of thrown (for per-item checks). */
  check(field: string, raw: string): { ok: true; path: string } | { ok: false; reason: string };
}

/** The CLI's guard: every path, relative to `rootDir`. */
export function localPathGuard(rootDir: string): PathGuard {
  const input = (_field: string, raw: string) => path.resolve(rootDir, raw);
  return { confined: false, input, check: (field, raw) => ({ ok: true, path: input(field, raw) }) };
}

function inside(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}

/** The real path of `p`: the deepest existing ancestor resolved through its symlinks, the rest appended. */
export function realPathOf(p: string): string {
  const missing: string[] = [];
  let cur = p;
  for (;;) {
    try {
      return path.join(realpathSync(cur), ...missing.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw err;
      const parent = path.dirname(cur);
      if (parent === cur) return p;
      missing.push(path.basename(cur));
      cur = parent;
    }
  }
}

export interface ConfinedGuardOptions {
  rootDir: string;
  /** Absolute folders (or single files) the run may read; those that do not exist are ignored. */
  roots: readonly string[];
  /** How the roots are named in a refusal, e.g. "configs/, data/, .skillopt/uploads/, …". */
  rootsLabel: string;
}

/** The dashboard's guard: only real paths inside `roots`. */
export function confinedPathGuard(opts: ConfinedGuardOptions): PathGuard {
  // Both spellings of each root: the lexical one (to refuse without touching the disk) and the real one.
  const real = opts.roots.map((r) => realPathOf(path.resolve(opts.rootDir, r)));
  const lexical = opts.roots.map((r) => path.resolve(opts.rootDir, r));
  const refusal = (field: string, raw: string) =>
    `${field}: ${raw} is outside the folders the dashboard may read (${opts.rootsLabel})`;
  const check: PathGuard["check"] = (field, raw) => {
    const abs = path.resolve(opts.rootDir, raw);
    // A path outside every root is refused before the disk is asked, so refusals never tell what exists.
    if (![...lexical, ...real].some((r) => inside(abs, r))) return { ok: false, reason: refusal(field, raw) };
    const resolved = realPathOf(abs);
    if (!real.some((r) => inside(resolved, r))) return { ok: false, reason: refusal(field, raw) };
    return { ok: true, path: resolved };
  };
  return {
    confined: true,
    check,
    input(field, raw) {
      const r = check(field, raw);
      if (!r.ok) throw new AppError("INVALID_REQUEST", r.reason, { field });
      return r.path;
    },
  };
}
