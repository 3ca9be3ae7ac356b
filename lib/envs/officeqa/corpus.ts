/**
 * Where the OfficeQA documents live. Roots are tried in order — `env.data_dirs` (relative to the project
 * root), then `OFFICEQA_DOCS_DIR` (a path-separator or comma list), then the two usual data folders — and
 * every existing one is kept (deduplicated); a root with a `transformed/` subfolder uses that subfolder.
 * The built-in sample always reads its own documents folder. Nothing found is an error at env creation,
 * so a misconfigured run fails before it pays for a single model call.
 */
import { readdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { AppError } from "../../errors";
import type { PathGuard } from "../common/path-guard";

/** The sample corpus, relative to the project root. */
export const SAMPLE_DOCS_DIR = "lib/envs/officeqa/sample/docs";
/** Fallback corpus folders, relative to the project root. */
export const DEFAULT_DOCS_DIRS = ["data/officeqa_docs_official", "data/officeqa_smoke_docs"] as const;
/** At most this many files are indexed per corpus (a guard against pointing at a whole disk). */
export const MAX_CORPUS_FILES = 20000;

/** Inputs of `resolveCorpusRoots`. */
export interface CorpusRootOptions {
  rootDir: string;
  dataDirs: readonly string[];
  vars: Readonly<Record<string, string | undefined>>;
  /** True for `split_mode: sample`: only the sample's documents folder. */
  sample: boolean;
  /** The run's path guard for `env.data_dirs` (the operator's OFFICEQA_DOCS_DIR and defaults are trusted). */
  paths?: PathGuard;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The candidate folders in the order they are tried (absolute, not yet checked). */
export function corpusCandidates(opts: CorpusRootOptions): string[] {
  if (opts.sample) return [path.resolve(opts.rootDir, SAMPLE_DOCS_DIR)];
  const fromVar = (opts.vars.OFFICEQA_DOCS_DIR ?? "")
    .split(new RegExp(`[${path.delimiter},]`))
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const configured = opts.dataDirs.map((d) => opts.paths?.input("env.data_dirs", d) ?? path.resolve(opts.rootDir, d));
  return [...configured, ...[...fromVar, ...DEFAULT_DOCS_DIRS].map((d) => path.resolve(opts.rootDir, d))];
}

/** The existing corpus roots (real paths, deduplicated, `transformed/` preferred); throws when there are none. */
export function resolveCorpusRoots(opts: CorpusRootOptions): string[] {
  const tried = corpusCandidates(opts);
  const roots: string[] = [];
  for (const dir of tried) {
    if (!isDir(dir)) continue;
    const transformed = path.join(dir, "transformed");
    const real = realpathSync(isDir(transformed) ? transformed : dir);
    if (!roots.includes(real)) roots.push(real);
  }
  if (roots.length === 0) {
    throw new AppError(
      "INVALID_REQUEST",
      `officeqa: no document corpus found; tried ${tried.join(", ")} (set env.data_dirs or OFFICEQA_DOCS_DIR)`,
      { field: "env.data_dirs" },
    );
  }
  return roots;
}

/** One document of the corpus: where it is and how the tools name it. */
export interface CorpusFile {
  /** Absolute real path. */
  abs: string;
  /** Path relative to its root, with `/` separators (the name tools and prompts use). */
  rel: string;
  base: string;
}

/** Folders that hold benchmark splits (questions AND answers): never indexed, so no tool can read them. */
export const LEAK_GUARD_DIRS = new Set(["officeqa_split", "sealqa_split"]);

/**
 * Every regular file under the roots (sorted; hidden entries, symlinks and split folders skipped; the
 * first root wins a name clash).
 */
export function listCorpusFiles(roots: readonly string[]): CorpusFile[] {
  const out: CorpusFile[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    const stack = [""];
    while (stack.length > 0 && out.length < MAX_CORPUS_FILES) {
      const relDir = stack.pop() as string;
      const entries = readdirSync(path.join(root, relDir), { withFileTypes: true });
      for (const e of entries) {
        if (e.name.startsWith(".") || (e.isDirectory() && LEAK_GUARD_DIRS.has(e.name))) continue;
        const rel = relDir === "" ? e.name : `${relDir}/${e.name}`;
        if (e.isDirectory()) stack.push(rel);
        else if (e.isFile() && !seen.has(rel)) {
          seen.add(rel);
          out.push({ abs: path.join(root, rel), rel, base: e.name });
        }
      }
    }
  }
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}
