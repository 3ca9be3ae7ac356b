/**
 * Extension modules (README "Extending", SKILLOPT_EXTENSIONS): files that export `backends` and/or
 * `benchmarks` arrays, registered in this process. The dashboard (instrumentation.ts), the worker and the
 * CLI each load the same list at start, so a run the dashboard checks is a run the worker can build.
 * The dashboard only reads names, catalogs and samples of what is registered; it never calls a backend's
 * `provider` or a benchmark's `create` (the worker and the CLI do).
 *
 * A `.ts`/`.mts`/`.cts` file is compiled on load (tsx, with the project's tsconfig: `@/lib/...` imports
 * work); `.js`/`.mjs`/`.cjs` files are imported as they are. Loading is all or nothing per file: a file
 * that cannot be imported, exports nothing to register, or names a taken backend or benchmark is refused
 * with one error naming the file, and none of its registrations stay.
 */
import { existsSync } from "node:fs";
import { extname, isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { BackendExtension } from "../backends/extensions";
import { registerBackend } from "../backends/names";
import { env } from "../config/env";
import { registerBenchmark, type BenchmarkRegistration } from "../envs/descriptors";
import { AppError } from "../errors";

/** What one extension file registered. */
export interface LoadedExtension {
  /** The file as SKILLOPT_EXTENSIONS names it. */
  file: string;
  backends: string[];
  benchmarks: string[];
}

const FIELD = "SKILLOPT_EXTENSIONS";
const TS = new Set([".ts", ".mts", ".cts"]);

/** Files already loaded in this process (globalThis: the dashboard's bundles share one list). */
interface Loaded {
  result: LoadedExtension;
  unregister: () => void;
}
const g = globalThis as unknown as { __skilloptExtensions?: Map<string, Promise<Loaded>> };

const fail = (file: string, msg: string, cause?: unknown): never => {
  throw new AppError("INVALID_REQUEST", `${FIELD}: '${file}' ${msg}`, { field: FIELD, cause });
};

/** Imports one module: TypeScript through tsx (scoped to this import), JavaScript natively. */
async function importModule(abs: string, rootDir: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(abs).href;
  if (TS.has(extname(abs))) {
    const { tsImport } = await import("tsx/esm/api");
    return (await tsImport(url, { parentURL: pathToFileURL(resolve(rootDir, "index.js")).href })) as Record<
      string,
      unknown
    >;
  }
  return (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url)) as Record<string, unknown>;
}

/** `exports.x`, or `exports.default.x` for a CommonJS module or a default-exported object. */
function exported(mod: Record<string, unknown>, key: string): unknown {
  if (mod[key] !== undefined) return mod[key];
  const d = mod.default;
  return d !== null && typeof d === "object" ? (d as Record<string, unknown>)[key] : undefined;
}

/** The array an export holds, each entry an object with a string `name` and the functions it needs. */
function entries<T>(file: string, key: string, value: unknown, needs: string[]): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return fail(file, `exports '${key}' that is not an array`);
  value.forEach((v: unknown, i) => {
    const o = v as Record<string, unknown> | null;
    if (o === null || typeof o !== "object" || typeof o.name !== "string")
      fail(file, `${key}[${i}] is not an object with a string 'name'`);
    for (const fn of needs)
      if (typeof o![fn] !== "function") fail(file, `${key}[${i}] ('${String(o!.name)}') has no '${fn}' function`);
  });
  return value as T[];
}

async function loadOne(file: string, abs: string, rootDir: string): Promise<Loaded> {
  if (!existsSync(abs)) fail(file, `does not exist (looked for ${abs})`);
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(abs, rootDir);
  } catch (err) {
    return fail(file, `could not be loaded: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  const backends = entries<BackendExtension>(file, "backends", exported(mod, "backends"), ["provider"]);
  const benchmarks = entries<BenchmarkRegistration>(file, "benchmarks", exported(mod, "benchmarks"), [
    "create",
    "sample",
  ]);
  if (backends.length + benchmarks.length === 0)
    fail(file, "exports no 'backends' or 'benchmarks' array with an entry to register");
  const undo: Array<() => void> = [];
  try {
    for (const b of backends) undo.push(registerBackend(b));
    for (const b of benchmarks) undo.push(registerBenchmark(b));
  } catch (err) {
    while (undo.length) undo.pop()!();
    return fail(file, `could not be registered: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  return {
    result: { file, backends: backends.map((b) => b.name), benchmarks: benchmarks.map((b) => b.name) },
    unregister: () => undo.forEach((u) => u()),
  };
}

/**
 * Loads and registers each file once per process, in order (a file named again, or loaded again by
 * another caller, is not registered twice). Relative paths are relative to `rootDir`.
 */
export async function loadExtensions(files: readonly string[], rootDir: string): Promise<LoadedExtension[]> {
  const loaded = (g.__skilloptExtensions ??= new Map());
  const out: LoadedExtension[] = [];
  for (const file of files) {
    const abs = isAbsolute(file) ? file : resolve(rootDir, file);
    let pending = loaded.get(abs);
    if (!pending) {
      pending = loadOne(file, abs, rootDir);
      loaded.set(abs, pending);
      // A refused file may be fixed and loaded again by a later call.
      pending.catch(() => loaded.delete(abs));
    }
    out.push((await pending).result);
  }
  return out;
}

/** Unregisters everything loaded so far (for tests that load extensions case by case). */
export async function forgetExtensions(): Promise<void> {
  const loaded = [...(g.__skilloptExtensions?.values() ?? [])];
  g.__skilloptExtensions?.clear();
  for (const l of await Promise.allSettled(loaded)) if (l.status === "fulfilled") l.value.unregister();
}

/** The files SKILLOPT_EXTENSIONS names, loaded (none: nothing to do). */
export function loadConfiguredExtensions(rootDir: string): Promise<LoadedExtension[]> {
  return loadExtensions(env().SKILLOPT_EXTENSIONS, rootDir);
}

/** One line for a process's start-up log, e.g. "echo (backend), tally (benchmark) from ext.ts". */
export function describeExtensions(loaded: readonly LoadedExtension[]): string {
  return loaded
    .map((l) => {
      const names = [...l.backends.map((n) => `${n} (backend)`), ...l.benchmarks.map((n) => `${n} (benchmark)`)];
      return `${names.join(", ")} from ${l.file}`;
    })
    .join("; ");
}
