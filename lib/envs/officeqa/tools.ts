/**
 * The three local tools an OfficeQA agent may call — `glob`, `read`, `grep` — executed against the
 * corpus roots. Paths must resolve inside a root (no `..`, no symlink escape) and, when the question
 * names its source files, have one of their basenames. Every result is text for the model; a bad call
 * yields a one-line `error: …` result, never an exception.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import type { CorpusFile } from "./corpus";

export const GLOB_MAX_HITS = 50;
export const GREP_MAX_HITS = 20;
export const READ_DEFAULT_LIMIT = 80;
export const READ_MAX_LIMIT = 400;
export const READ_MAX_CHARS = 4000;
const LINE_MAX_CHARS = 300;
const FILE_MAX_BYTES = 20 * 1024 * 1024;

/** One parsed tool request. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** The names the tools answer to. */
export const TOOL_NAMES = ["glob", "read", "grep"] as const;

/** The tools of one rollout. */
export interface ToolRuntime {
  /** Files the question may use (all corpus files when it names no source files). */
  candidates: CorpusFile[];
  run(call: ToolCall): string;
}

/** Inputs of `createToolRuntime`. */
export interface ToolRuntimeOptions {
  roots: readonly string[];
  files: readonly CorpusFile[];
  /** The item's `source_files` (basenames or paths); empty = every file is allowed. */
  sourceFiles: readonly string[];
}

/** fnmatch-style pattern → anchored regex (`*` any run, `?` one char, `[…]` a class, `[!…]` a negated class). */
export function fnmatchRegExp(pattern: string): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        let body = pattern.slice(i + 1, end).replace(/\\/g, "\\\\");
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        out += `[${body}]`;
        i = end;
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${out}$`, "is");
}

function inside(child: string, root: string): boolean {
  const rel = path.relative(root, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function stringArg(args: Record<string, unknown>, key: string): string | null {
  const v = args[key];
  return typeof v === "string" && v.trim() !== "" ? v : null;
}

function intArg(args: Record<string, unknown>, key: string, fallback: number): number | null {
  const v = args[key];
  if (v === undefined || v === null || v === "") return fallback;
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
  return Number.isInteger(n) ? n : null;
}

function clip(line: string): string {
  return line.length > LINE_MAX_CHARS ? `${line.slice(0, LINE_MAX_CHARS)} …` : line;
}

/** Builds the tools for one question. */
export function createToolRuntime(opts: ToolRuntimeOptions): ToolRuntime {
  const allowed = new Set(opts.sourceFiles.map((f) => path.basename(f.replace(/\\/g, "/"))));
  const candidates = allowed.size === 0 ? [...opts.files] : opts.files.filter((f) => allowed.has(f.base));
  const lineCache = new Map<string, string[]>();
  const indexed = new Set(opts.files.map((f) => f.abs));

  const linesOf = (file: CorpusFile): string[] => {
    let lines = lineCache.get(file.abs);
    if (!lines) {
      if (statSync(file.abs).size > FILE_MAX_BYTES) throw new Error(`${file.rel} is larger than 20 MB`);
      lines = readFileSync(file.abs, "utf8").split(/\r?\n/);
      lineCache.set(file.abs, lines);
    }
    return lines;
  };

  /** A corpus file for a path the model gave, or the reason it is refused. */
  const resolve = (given: string): CorpusFile | string => {
    const p = given.trim().replace(/\\/g, "/").replace(/^\.\//, "");
    if (p.split("/").includes("..")) return `error: path '${given}' leaves the document folders`;
    for (const root of opts.roots) {
      const target = path.isAbsolute(p) ? p : path.resolve(root, p);
      let real: string;
      try {
        real = realpathSync(target);
      } catch {
        continue;
      }
      if (!inside(real, root)) {
        if (path.isAbsolute(p) && opts.roots.some((r) => inside(real, r))) continue;
        return `error: path '${given}' leaves the document folders`;
      }
      if (!statSync(real).isFile()) return `error: '${given}' is not a file`;
      // Only indexed documents: no hidden files, no split folders (they hold the answers), no symlinks.
      if (!indexed.has(real)) return `error: '${given}' is not a document of the corpus`;
      const rel = path.relative(root, real).split(path.sep).join("/");
      return checkAllowed({ abs: real, rel, base: path.basename(real) }, given);
    }
    if (path.isAbsolute(p)) return `error: path '${given}' leaves the document folders`;
    // A bare basename (or a path relative to another root) names a candidate file when it is unique.
    const byName = candidates.filter((f) => f.base === path.basename(p) || f.rel === p);
    if (byName.length === 1) return byName[0] as CorpusFile;
    return `error: no document '${given}' (use glob to list the files)`;
  };

  const checkAllowed = (file: CorpusFile, given: string): CorpusFile | string => {
    if (allowed.size === 0 || allowed.has(file.base)) return file;
    return `error: '${given}' is not one of this question's source files (${[...allowed].join(", ")})`;
  };

  const glob = (args: Record<string, unknown>): string => {
    const pattern = stringArg(args, "pattern");
    if (pattern === null) return "error: glob needs a 'pattern' argument";
    const re = fnmatchRegExp(pattern.trim());
    const hits = candidates.filter((f) => re.test(f.rel) || re.test(f.base)).map((f) => f.rel);
    if (hits.length === 0) return `no files match '${pattern}'`;
    const shown = hits.slice(0, GLOB_MAX_HITS);
    const more = hits.length - shown.length;
    return [...shown, ...(more > 0 ? [`[... ${more} more files not shown ...]`] : [])].join("\n");
  };

  const read = (args: Record<string, unknown>): string => {
    const given = stringArg(args, "path");
    if (given === null) return "error: read needs a 'path' argument";
    const start = intArg(args, "start", 1);
    const limit = intArg(args, "limit", READ_DEFAULT_LIMIT);
    if (start === null || start < 1) return "error: 'start' must be a line number ≥ 1";
    if (limit === null || limit < 1) return "error: 'limit' must be a positive number of lines";
    const file = resolve(given);
    if (typeof file === "string") return file;
    const lines = linesOf(file);
    if (start > lines.length) return `error: ${file.rel} has only ${lines.length} lines`;
    const end = Math.min(lines.length, start + Math.min(limit, READ_MAX_LIMIT) - 1);
    let body = "";
    for (let n = start; n <= end; n++) body += `${n}: ${clip(lines[n - 1] ?? "")}\n`;
    const head = `${file.rel} (lines ${start}-${end} of ${lines.length})\n`;
    if (body.length > READ_MAX_CHARS)
      body = `${body.slice(0, READ_MAX_CHARS)}\n[... cut at ${READ_MAX_CHARS} characters; read a smaller window ...]\n`;
    return (head + body).trimEnd();
  };

  const grep = (args: Record<string, unknown>): string => {
    const pattern = stringArg(args, "pattern");
    if (pattern === null) return "error: grep needs a 'pattern' argument";
    const given = stringArg(args, "path");
    let files: CorpusFile[];
    if (given !== null) {
      const file = resolve(given);
      if (typeof file === "string") return file;
      files = [file];
    } else files = candidates;
    const needle = pattern.toLowerCase();
    const hits: string[] = [];
    let total = 0;
    for (const file of files) {
      linesOf(file).forEach((line, i) => {
        if (!line.toLowerCase().includes(needle)) return;
        total += 1;
        if (hits.length < GREP_MAX_HITS) hits.push(`${files.length > 1 ? `${file.rel}:` : ""}${i + 1}: ${clip(line)}`);
      });
    }
    if (total === 0) return `no lines contain '${pattern}'`;
    return [
      ...hits,
      ...(total > hits.length ? [`[... ${total - hits.length} more matching lines not shown ...]`] : []),
    ].join("\n");
  };

  const handlers: Record<string, (args: Record<string, unknown>) => string> = { glob, read, grep };
  return {
    candidates,
    run(call) {
      const handler = handlers[call.name];
      if (!handler) return `error: unknown tool '${call.name}' (available: ${TOOL_NAMES.join(", ")})`;
      try {
        return handler(call.arguments);
      } catch (err) {
        return `error: ${call.name} failed (${err instanceof Error ? err.message : String(err)})`;
      }
    },
  };
}
