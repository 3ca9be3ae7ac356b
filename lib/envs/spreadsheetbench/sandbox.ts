/**
 * Running model-written code on one test case: a fresh task folder holding a copy of the input
 * workbook, run inside the bubblewrap sandbox (bwrap.ts: no network, PID namespace, read-only system,
 * only the task folder writable) with a scrubbed environment, a wall-clock limit that kills the whole
 * sandbox, and an address-space limit set by python/runner.py. Only a run that opted in
 * (`env.allow_unsandboxed`) runs scripts as plain processes instead. Never in the server process.
 */
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { HELPERS_DIR, sandboxArgs, TASK_DIR, type Isolation, type SandboxMounts } from "./bwrap";
import { runProcess, scrubbedEnv } from "./python";

/** Sandbox settings of one environment. */
export interface SandboxSettings {
  python: string;
  vars: Readonly<Record<string, string | undefined>>;
  /** Wall-clock limit per script run, seconds. */
  timeoutSec: number;
  /** Address-space limit, MB (0 = none). */
  memoryMb: number;
  /** Absolute folder of our Python helpers (`PYTHON_DIR` under the project root). */
  pythonDir: string;
  /** The sandbox scripts and the workbook helper run in. */
  isolation: Isolation;
}

/**
 * The folder for task folders under `base`: `skillopt-ssb-<uid>`, shared by this user's processes —
 * unless something else holds that name (another user's folder, one others can enter, a symlink),
 * in which case a fresh private folder is made instead.
 */
export function pickScratchRoot(base: string, uid: number | undefined): string {
  const shared = path.join(base, `skillopt-ssb-${uid ?? "user"}`);
  try {
    mkdirSync(shared, { recursive: true, mode: 0o700 });
    const st = lstatSync(shared);
    if (st.isDirectory() && (uid === undefined || (st.uid === uid && (st.mode & 0o077) === 0))) return shared;
  } catch {
    // a file or something unreadable holds the name: use a fresh folder
  }
  return mkdtempSync(path.join(base, "skillopt-ssb-"));
}

let scratchRootDir: string | null = null;

/**
 * The one folder that holds every task folder, so a long-lived sandboxed workbook helper can be given
 * read access to all of them at once (task folders inside are removed after each run of a script).
 */
export function scratchRoot(): string {
  if (scratchRootDir === null || !existsSync(scratchRootDir))
    scratchRootDir = pickScratchRoot(tmpdir(), process.getuid?.());
  return scratchRootDir;
}

/** A command line running `script` (a file in the helpers folder) with the interpreter, sandboxed or not. */
export function pythonCommand(
  settings: SandboxSettings,
  script: string,
  args: readonly string[],
  mounts: Omit<SandboxMounts, "helpers"> = {},
): { command: string; args: string[] } {
  const { isolation } = settings;
  if (isolation.kind === "none")
    return { command: settings.python, args: [path.join(settings.pythonDir, script), ...args] };
  const box = sandboxArgs(isolation.layout, { ...mounts, helpers: settings.pythonDir });
  return {
    command: isolation.bwrap,
    args: [...box, "--", isolation.layout.executable, path.posix.join(HELPERS_DIR, script), ...args],
  };
}

/** The outcome of running a script on one input workbook. */
export type ExecOutcome =
  | { kind: "ok"; outputPath: string; scratch: string }
  | { kind: "error" | "timeout" | "no-output"; message: string; scratch: string };

/** Removes lines that assign INPUT_PATH / OUTPUT_PATH: the runner defines both. */
export function stripPathAssignments(code: string): string {
  return code
    .split(/\r?\n/)
    .filter((line) => !/^\s*(INPUT_PATH|OUTPUT_PATH)\s*=/.test(line))
    .join("\n");
}

/** The last non-empty lines of a traceback, at most `max` characters (the end is what matters). */
export function errorTail(text: string, max = 3000): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : `…${trimmed.slice(trimmed.length - max + 1)}`;
}

/** The last non-empty line of an error text (the exception line of a traceback). */
export function lastLine(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  return lines[lines.length - 1] ?? "";
}

/**
 * Runs `code` on a copy of `inputPath`. The caller must `rmSync(outcome.scratch)` once it has read the
 * output (use `disposeScratch`).
 */
export async function executeScript(opts: {
  settings: SandboxSettings;
  code: string;
  inputPath: string;
  signal?: AbortSignal;
}): Promise<ExecOutcome> {
  const { settings } = opts;
  const scratch = mkdtempSync(path.join(scratchRoot(), "case-"));
  const output = path.join(scratch, "output.xlsx");
  copyFileSync(opts.inputPath, path.join(scratch, "input.xlsx"));
  writeFileSync(path.join(scratch, "solution.py"), stripPathAssignments(opts.code), "utf8");
  // The script sees its folder as /task inside the sandbox, as itself outside it.
  const boxed = settings.isolation.kind === "bwrap";
  const seen = boxed ? TASK_DIR : scratch;
  const inside = (file: string) => (boxed ? path.posix.join(TASK_DIR, file) : path.join(scratch, file));
  const cmd = pythonCommand(
    settings,
    "runner.py",
    ["solution.py", inside("input.xlsx"), inside("output.xlsx"), String(settings.memoryMb)],
    { task: scratch },
  );
  const result = await runProcess({
    ...cmd,
    cwd: scratch,
    env: scrubbedEnv(settings.vars, seen),
    timeoutMs: settings.timeoutSec * 1000,
    signal: opts.signal,
  });
  if (result.aborted) return { kind: "error", message: "cancelled", scratch };
  if (result.timedOut) {
    return { kind: "timeout", message: `the script ran longer than ${settings.timeoutSec}s and was killed`, scratch };
  }
  if (result.exitCode !== 0) {
    const text = `${result.stdout}\n${result.stderr}`.trim() || `exit code ${String(result.exitCode)}`;
    return { kind: "error", message: errorTail(text), scratch };
  }
  if (!existsSync(output))
    return { kind: "no-output", message: "the script finished without writing OUTPUT_PATH", scratch };
  return { kind: "ok", outputPath: output, scratch };
}

/** Deletes a scratch folder. */
export function disposeScratch(scratch: string): void {
  rmSync(scratch, { recursive: true, force: true });
}
