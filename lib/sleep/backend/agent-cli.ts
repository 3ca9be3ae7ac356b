/**
 * The agent-CLI Sleep backends of spec D.10 that have no exec target of their own: GitHub Copilot CLI,
 * Cursor Agent, Pi and OpenCode. Each is a ModelClient: one prompt in, one answer out, the CLI run in a
 * fresh empty temporary folder that is removed afterwards. A driver says how to call its CLI and how
 * to read its output; this file runs it (process group, timeout, output cap: lib/backends/exec) and maps
 * failures: a CLI that cannot start or cannot log in stops the night (`stopRun: "fail"`), any other
 * failure is one failed call (ModelBackend records it and scores an empty answer).
 */
import { accessSync, constants, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { describeExit, runCli, type CliOutput, type ExecEnv } from "../../backends/exec";
import type { CompletionRequest, CompletionResult, ModelClient } from "../../engine/ports";
import { AppError } from "../../errors";

export interface Invocation {
  args: string[];
  stdin: string;
  env: ExecEnv;
  /** Working directory (default: the run's temp folder). */
  cwd?: string;
}

/** How one agent CLI is called and read. */
export interface CliDriver {
  /** Backend name in messages and keys ("copilot"). */
  label: string;
  /** The executable (name on PATH or a path). */
  bin: string;
  /** Model flag value; "" leaves the CLI's own default. */
  model: string;
  timeoutMs: number;
  /** Extra runs after a failure the driver marks retryable. */
  retries: number;
  /** Arguments and stdin for one prompt run in `work` (an empty temp folder). */
  invocation(prompt: string, work: string): Invocation | Promise<Invocation>;
  /** The answer from a finished run; throws (a CliCallError) when there is none. */
  parse(out: CliOutput): string;
  /** How to install the CLI or point at it (appended to "cannot start"). */
  installHint: string;
}

/** One failed call; `retryable` asks for another run, `fatal` stops the night. */
export class CliCallError extends Error {
  constructor(
    message: string,
    readonly opts: { retryable?: boolean; fatal?: boolean } = {},
  ) {
    super(message);
    this.name = "CliCallError";
    if (opts.fatal) Object.assign(this, { stopRun: "fail" as const });
  }
}

export class AgentCliClient implements ModelClient {
  readonly backend: string;
  readonly model: string;

  constructor(
    private readonly d: CliDriver,
    private readonly workRoot = tmpdir(),
  ) {
    this.backend = d.label;
    this.model = d.model || "default";
  }

  async complete(req: CompletionRequest): Promise<CompletionResult> {
    const prompt = [
      req.system,
      ...req.messages.map((m) =>
        typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join("\n"),
      ),
    ]
      .filter((s) => s.trim() !== "")
      .join("\n\n");
    const started = performance.now();
    for (let attempt = 0; ; attempt++) {
      try {
        const text = await this.runOnce(prompt, req.signal);
        return {
          text,
          usage: { promptTokens: 0, completionTokens: 0 },
          latencyMs: Math.round(performance.now() - started),
          cached: false,
        };
      } catch (err) {
        if (!(err instanceof CliCallError && err.opts.retryable && attempt < this.d.retries)) throw err;
      }
    }
  }

  private async runOnce(prompt: string, signal?: AbortSignal): Promise<string> {
    const work = mkdtempSync(join(this.workRoot, `skillopt-sleep-${this.d.label}-`));
    try {
      const { args, stdin, env, cwd } = await this.d.invocation(prompt, work);
      let out: CliOutput;
      try {
        out = await runCli({
          label: this.d.label,
          bin: this.d.bin,
          args,
          cwd: cwd ?? work,
          env,
          stdin,
          timeoutMs: this.d.timeoutMs,
          signal,
          installHint: this.d.installHint,
        });
      } catch (err) {
        if ((err as Error).name === "TimeoutError") throw new CliCallError((err as Error).message, { retryable: true });
        throw err;
      }
      return this.d.parse(out);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}

/** A non-zero exit as one failed call, naming the CLI. */
export function exitError(label: string, out: CliOutput): CliCallError {
  return new CliCallError(`${label} ${describeExit(out)}`);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The executable to run: an explicit path (config key or env), else `name` on PATH. A missing one is
 * refused up front, naming the executable and where to set its path.
 */
export function resolveCliBin(o: {
  label: string;
  name: string;
  explicit: string;
  setting: string;
  flag?: string;
  env: ExecEnv;
  install: string;
}): string {
  const wanted = o.explicit.trim();
  if (wanted !== "") {
    const p = isAbsolute(wanted) ? wanted : resolve(wanted);
    if (!wanted.includes("/")) {
      const found = (o.env.PATH ?? "")
        .split(delimiter)
        .filter(Boolean)
        .map((d) => join(d, wanted))
        .find(isExecutable);
      if (found) return found;
    } else if (isExecutable(p)) return p;
    throw new AppError(
      "INVALID_REQUEST",
      `${o.setting}: the ${o.label} CLI '${wanted}' is not an executable file. ${o.install}`,
      { field: o.setting },
    );
  }
  const found = (o.env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .map((d) => join(d, o.name))
    .find(isExecutable);
  if (found) return found;
  throw new AppError(
    "INVALID_REQUEST",
    `backend: the ${o.label} CLI '${o.name}' was not found on PATH. ${o.install} Or set ${o.setting}${o.flag ? ` (${o.flag})` : ""} to its location.`,
    { field: o.setting },
  );
}

/** The environment without the given names (empty values dropped, like lib/backends/exec). */
export function envWithout(env: ExecEnv, drop: readonly string[]): ExecEnv {
  return Object.fromEntries(Object.entries(env).filter(([k, v]) => v !== undefined && v !== "" && !drop.includes(k)));
}
