/**
 * Runs one agent CLI as the leader of its own process group, feeds the prompt on stdin and collects its
 * output. A timeout, an abort or runaway output kills the whole group (the CLI and every command it
 * started), and the promise settles only after the CLI's pipes have closed, so no process is left behind.
 */
import { spawn } from "node:child_process";
import type { ExecEnv, ExecError } from "./types";

export interface RunCliOptions {
  /** Backend name for messages ("codex-exec"). */
  label: string;
  bin: string;
  args: string[];
  cwd: string;
  env: ExecEnv;
  stdin: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Appended to the "cannot start" error (how to install the CLI or point at it). */
  installHint: string;
}

export interface CliOutput {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** The last STDERR_TAIL characters of stderr. */
  stderr: string;
}

/** Stdout beyond this is a runaway CLI: it is killed and the call fails. */
export const MAX_STDOUT_BYTES = 32 * 1024 * 1024;
const STDERR_TAIL = 64 * 1024;
/** Exit status of `/usr/bin/env` (and shells) when the interpreter or command does not exist. */
const EXIT_NOT_FOUND = 127;
/** How long output pipes may stay open after the CLI exited (held by a process outside its group). */
const CLOSE_GRACE_MS = 2000;

/** An error that must stop the run: the CLI cannot be started at all. */
export function startError(label: string, detail: string, installHint: string): ExecError {
  return Object.assign(new Error(`${label}: ${detail}. ${installHint}`), { stopRun: "fail" as const });
}

export function abortError(label: string, signal: AbortSignal): Error {
  return Object.assign(new Error(`${label}: aborted`, { cause: signal.reason }), { name: "AbortError" });
}

function timeoutError(label: string, ms: number): Error {
  return Object.assign(new Error(`${label}: timed out after ${Number((ms / 1000).toFixed(1))} s; the CLI was killed`), {
    name: "TimeoutError",
  });
}

/** SIGKILL to the whole group `pid`; a group that is already gone is the goal, not a failure. */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
  }
}

/** Exactly the given variables (Next's typings insist on NODE_ENV; the child gets none it was not given). */
function definedEnv(env: ExecEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined),
  ) as NodeJS.ProcessEnv;
}

export function runCli(o: RunCliOptions): Promise<CliOutput> {
  if (o.signal?.aborted) return Promise.reject(abortError(o.label, o.signal));
  return new Promise<CliOutput>((resolve, reject) => {
    const child = spawn(o.bin, o.args, {
      cwd: o.cwd,
      env: definedEnv(o.env),
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = "";
    let failure: Error | null = null;
    let settled = false;

    const fail = (err: Error) => {
      failure ??= err;
      killGroup(child.pid);
    };
    const onAbort = () => fail(abortError(o.label, o.signal!));
    const timer = setTimeout(() => fail(timeoutError(o.label, o.timeoutMs)), o.timeoutMs);
    o.signal?.addEventListener("abort", onAbort, { once: true });

    const settle = (err: Error | null, out?: CliOutput) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
      if (err) reject(err);
      else resolve(out!);
    };

    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_STDOUT_BYTES)
        fail(new Error(`${o.label}: the CLI printed more than ${MAX_STDOUT_BYTES >> 20} MB; it was killed`));
      else chunks.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    // A CLI may exit before reading its prompt (EPIPE); its exit status and stderr say why, so keep a note.
    child.stdin.on("error", (err) => {
      stderr = `${stderr}\n[stdin: ${err.message}]`.slice(-STDERR_TAIL);
    });
    child.on("error", (err: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return fail(err);
      const missing = err.code === "ENOENT" || err.code === "EACCES";
      settle(missing ? startError(o.label, `cannot run '${o.bin}' (${err.code})`, o.installHint) : err);
    });
    // The CLI is gone: sweep whatever it left running in its group, so the pipes close and 'close' fires.
    // A process that left the group (setsid) could still hold a pipe; after a grace period stop reading.
    let grace: NodeJS.Timeout | undefined;
    child.on("exit", () => {
      killGroup(child.pid);
      grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, CLOSE_GRACE_MS);
    });
    child.on("close", (code, signal) => {
      clearTimeout(grace);
      if (failure) return settle(failure);
      const stdout = Buffer.concat(chunks).toString("utf8");
      if (code === EXIT_NOT_FOUND && stdout.trim() === "") {
        const why = stderr.trim().split("\n").slice(-1)[0] ?? "";
        return settle(
          startError(o.label, `'${o.bin}' could not start (exit 127${why ? `: ${why}` : ""})`, o.installHint),
        );
      }
      settle(null, { code, signal, stdout, stderr });
    });
    child.stdin.end(o.stdin);
  });
}

/** Why a run that exited badly failed, from its exit status and the last line of stderr. */
export function describeExit(out: CliOutput): string {
  const status = out.code !== null ? `exited with code ${out.code}` : `was killed by ${out.signal ?? "a signal"}`;
  const last = out.stderr
    .trim()
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(-1)[0];
  return last ? `${status}: ${last.trim().slice(0, 500)}` : status;
}
