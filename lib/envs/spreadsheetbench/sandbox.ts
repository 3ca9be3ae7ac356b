/**
 * Running model-written code on one test case, in a subprocess: a fresh scratch folder (also HOME and
 * TMPDIR) holding a copy of the input workbook, a scrubbed environment, a wall-clock limit that kills
 * the process group, an address-space limit and a best-effort network block (see python/runner.py for
 * what that block does and does not stop). Never in the server process.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "");
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
  const scratch = mkdtempSync(path.join(tmpdir(), "skillopt-ssb-"));
  const input = path.join(scratch, "input.xlsx");
  const output = path.join(scratch, "output.xlsx");
  copyFileSync(opts.inputPath, input);
  writeFileSync(path.join(scratch, "solution.py"), stripPathAssignments(opts.code), "utf8");
  const result = await runProcess({
    command: settings.python,
    args: [path.join(settings.pythonDir, "runner.py"), "solution.py", input, output, String(settings.memoryMb)],
    cwd: scratch,
    env: scrubbedEnv(settings.vars, scratch),
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
  if (!existsSync(output)) return { kind: "no-output", message: "the script finished without writing OUTPUT_PATH", scratch };
  return { kind: "ok", outputPath: output, scratch };
}

/** Deletes a scratch folder. */
export function disposeScratch(scratch: string): void {
  rmSync(scratch, { recursive: true, force: true });
}
