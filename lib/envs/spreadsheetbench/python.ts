/**
 * The Python side of SpreadsheetBench: choosing an interpreter that has openpyxl, the scrubbed
 * environment every child process gets, and running a child with a wall-clock limit that kills its
 * whole process group (so a script that forks cannot outlive the limit).
 */
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { AppError } from "../../errors";

/**
 * This benchmark's folder: the module's own; in the bundled dashboard server, which has no module path,
 * the copy under the working directory (the project root `npm start` runs in).
 */
export const SPREADSHEET_DIR: string = import.meta.dirname ?? path.resolve("lib/envs/spreadsheetbench");

/** Folder of our Python helpers (runner.py, xlsx_tool.py). */
export const PYTHON_DIR = path.join(SPREADSHEET_DIR, "python");

/** The PATH children get (and programs are looked up on) when the parent has none. */
export const DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

/** Variables passed through unchanged when the parent has them (interpreter location, locale, Windows essentials). */
const PASSTHROUGH = [
  "PYTHONPATH",
  "PYTHONHOME",
  "VIRTUAL_ENV",
  "PYTHONIOENCODING",
  "PYTHONUTF8",
  "LD_LIBRARY_PATH",
  "DYLD_LIBRARY_PATH",
  "DYLD_FALLBACK_LIBRARY_PATH",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "SYSTEMROOT",
  "WINDIR",
  "COMSPEC",
  "PATHEXT",
];

/**
 * The only environment a Python child sees: PATH, HOME and TMPDIR pointing at its scratch folder, and
 * the passthrough list. Secrets in the parent's environment (API keys…) are never copied.
 */
export function scrubbedEnv(
  vars: Readonly<Record<string, string | undefined>>,
  scratch: string,
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: vars.PATH || DEFAULT_PATH,
    HOME: scratch,
    TMPDIR: scratch,
    TEMP: scratch,
    TMP: scratch,
  };
  for (const key of PASSTHROUGH) {
    const value = vars[key];
    if (value !== undefined && value !== "") env[key] = value;
  }
  env.PYTHONDONTWRITEBYTECODE = "1";
  return env;
}

/** The interpreters tried, in order: `SKILLOPT_PYTHON`, `python3` on PATH, `/usr/bin/python3`. */
export function pythonCandidates(vars: Readonly<Record<string, string | undefined>>): string[] {
  const list = [vars.SKILLOPT_PYTHON?.trim() ?? "", "python3", "/usr/bin/python3"].filter((c) => c !== "");
  return [...new Set(list)];
}

const probeCache = new Map<string, string>();

/**
 * The first candidate that can `import openpyxl` (cached per candidate list and PATH). Throws an
 * `AppError` with the install hint when none can, or when no Python is installed at all.
 */
export function resolvePython(
  vars: Readonly<Record<string, string | undefined>>,
  candidates: readonly string[] = pythonCandidates(vars),
): string {
  const key = `${candidates.join("|")}#${vars.PATH ?? ""}`;
  const hit = probeCache.get(key);
  if (hit !== undefined) return hit;
  let anyPython = false;
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ["-c", "import openpyxl"], {
      env: scrubbedEnv(vars, "/tmp") as NodeJS.ProcessEnv,
      timeout: 30_000,
      stdio: "ignore",
    });
    if (probe.error && (probe.error as NodeJS.ErrnoException).code === "ENOENT") continue;
    anyPython = true;
    if (probe.status === 0) {
      probeCache.set(key, candidate);
      return candidate;
    }
  }
  const tried = candidates.join(", ");
  const message = anyPython
    ? `SpreadsheetBench needs Python 3 with openpyxl: apt-get install python3-openpyxl (or set SKILLOPT_PYTHON to an interpreter that has it); tried ${tried}`
    : `SpreadsheetBench needs Python 3, and none was found (tried ${tried}): apt-get install python3 python3-openpyxl, or set SKILLOPT_PYTHON`;
  throw new AppError("UNAVAILABLE", message, { userMessage: message, field: "env.name" });
}

const moduleCache = new Map<string, boolean>();

/** True when `python` can import `module` (cached), e.g. whether pandas may be offered to the model. */
export function pythonHasModule(
  python: string,
  module: string,
  vars: Readonly<Record<string, string | undefined>>,
): boolean {
  const key = `${python}#${module}#${vars.PATH ?? ""}`;
  let hit = moduleCache.get(key);
  if (hit === undefined) {
    const probe = spawnSync(python, ["-c", `import ${module}`], {
      env: scrubbedEnv(vars, "/tmp") as NodeJS.ProcessEnv,
      timeout: 30_000,
      stdio: "ignore",
    });
    hit = probe.status === 0;
    moduleCache.set(key, hit);
  }
  return hit;
}

/** What one child process did. */
export interface ProcessResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Killed because the wall-clock limit passed. */
  timedOut: boolean;
  /** Killed because the run was cancelled. */
  aborted: boolean;
}

/** Options of `runProcess`. */
export interface RunProcessOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  stdin?: string;
  signal?: AbortSignal;
}

const MAX_OUTPUT = 256 * 1024;

/**
 * Runs a child in its own process group; on timeout or abort the whole group gets SIGKILL. Output is
 * capped at 256 KB per stream. Never rejects for the child's behaviour.
 */
export function runProcess(opts: RunProcessOptions): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(opts.command, opts.args, {
      cwd: opts.cwd,
      env: opts.env as NodeJS.ProcessEnv,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let aborted = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL"); // the group is already gone; make sure the child is too
      }
    };
    const timer = setTimeout(
      () => {
        timedOut = true;
        killGroup();
      },
      Math.max(1, opts.timeoutMs),
    );
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    if (opts.signal?.aborted) onAbort();
    child.stdout.on("data", (d: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += d.toString("utf8");
    });
    child.stderr.on("data", (d: Buffer) => {
      if (stderr.length < MAX_OUTPUT) stderr += d.toString("utf8");
    });
    child.stdin.on("error", () => undefined); // the child may exit before reading its input
    child.stdin.end(opts.stdin ?? "");
    const finish = (exitCode: number | null, extra = "") => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      resolve({ exitCode, stdout, stderr: stderr + extra, timedOut, aborted });
    };
    // When the script itself exits, anything it left running in its group goes too (and releases the pipes).
    child.on("exit", () => {
      if (!timedOut && !aborted) killGroup();
    });
    child.on("error", (err: Error) => finish(null, `\n${err.message}`));
    child.on("close", (code) => finish(code));
  });
}
