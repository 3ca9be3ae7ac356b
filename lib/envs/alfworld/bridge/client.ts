/**
 * The TypeScript side of the bridge to the real ALFWorld: one Python subprocess per game, speaking JSON
 * lines. Requests are `{"op":"reset"}`, `{"op":"step","action":…}` and `{"op":"close"}`; every answer is
 * `{"observation","admissible","won","done"}` or `{"error": "…"}`. A missing interpreter, a missing
 * `alfworld` package, a crash or a silent bridge each become one clear error message.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import type { GameSession, StepResult } from "../session";

/** How to start one bridge process. */
export interface BridgeOptions {
  /** Interpreter (default `python3`; `ALFWORLD_PYTHON`). */
  command: string;
  /** Script and its arguments before `--gamefile` (default: the shipped `alfworld_bridge.py`). */
  args: string[];
  /** Absolute path of the game (`game.tw-pddl` or its folder). */
  gamefile: string;
  /** Environment of the subprocess (a whitelist of the caller's variables plus ALFWORLD_DATA). */
  env: Record<string, string>;
  /** Longest wait for one answer, in milliseconds. */
  timeoutMs: number;
}

/** A bridge failure, with the stderr tail when the process said something. */
export class BridgeError extends Error {}

function tail(text: string, max = 400): string {
  const t = text.trim();
  return t.length > max ? `…${t.slice(-max)}` : t;
}

function seconds(ms: number): string {
  return ms < 1000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000));
}

function toResult(raw: unknown): StepResult {
  const r = raw as Record<string, unknown>;
  if (typeof r?.error === "string") throw new BridgeError(`ALFWorld bridge: ${r.error}`);
  if (typeof r?.observation !== "string" || !Array.isArray(r.admissible)) {
    throw new BridgeError(`ALFWorld bridge: malformed answer ${tail(JSON.stringify(raw), 200)}`);
  }
  const won = r.won === true;
  return {
    observation: r.observation,
    admissible: r.admissible.filter((a): a is string => typeof a === "string" && a !== "help"),
    won,
    done: r.done === true || won,
  };
}

/** Starts the bridge for one game; the first `reset` tells whether it really runs. */
export function openBridgeSession(opts: BridgeOptions): GameSession {
  let child: ChildProcessWithoutNullStreams;
  let stderr = "";
  let failure: BridgeError | null = null;
  const lines: string[] = [];
  let waiter: ((line: string | null) => void) | null = null;
  let ended = false;

  try {
    child = spawn(opts.command, [...opts.args, "--gamefile", opts.gamefile], {
      env: opts.env as NodeJS.ProcessEnv,
      stdio: "pipe",
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new BridgeError(`cannot start the ALFWorld bridge with '${opts.command}' (${message})`);
  }
  child.on("error", (err: NodeJS.ErrnoException) => {
    failure = new BridgeError(
      err.code === "ENOENT"
        ? `Python interpreter '${opts.command}' not found: install Python 3 with the alfworld package, or set ALFWORLD_PYTHON`
        : `ALFWorld bridge process error: ${err.message}`,
    );
    finish();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  child.stdin.on("error", () => undefined); // a dead child is reported through 'close' / 'error'
  const reader = createInterface({ input: child.stdout });
  reader.on("line", (line) => {
    if (line.trim() === "") return;
    if (waiter) {
      const w = waiter;
      waiter = null;
      w(line);
    } else lines.push(line);
  });
  child.on("close", () => finish());

  function finish(): void {
    ended = true;
    if (waiter) {
      const w = waiter;
      waiter = null;
      w(null);
    }
  }

  function nextLine(): Promise<string | null> {
    const ready = lines.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    if (ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiter = null;
        resolve("__timeout__");
      }, opts.timeoutMs);
      waiter = (line) => {
        clearTimeout(timer);
        resolve(line);
      };
    });
  }

  async function request(payload: Record<string, unknown>): Promise<StepResult> {
    if (failure) throw failure;
    if (!ended) child.stdin.write(`${JSON.stringify(payload)}\n`);
    const line = await nextLine();
    if (failure) throw failure;
    if (line === "__timeout__") {
      child.kill("SIGKILL");
      throw new BridgeError(
        `ALFWorld bridge gave no answer to '${String(payload.op)}' within ${seconds(opts.timeoutMs)}s`,
      );
    }
    if (line === null) {
      const said = tail(stderr);
      throw new BridgeError(
        `ALFWorld bridge exited before answering '${String(payload.op)}'${said ? `: ${said}` : ""}`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new BridgeError(`ALFWorld bridge wrote a line that is not JSON: ${tail(line, 200)}`);
    }
    return toResult(parsed);
  }

  return {
    reset: () => request({ op: "reset" }),
    step: (action) => request({ op: "step", action }),
    async close() {
      if (ended) return;
      try {
        child.stdin.write(`${JSON.stringify({ op: "close" })}\n`);
        child.stdin.end();
      } catch {
        // Already gone; killing below is enough.
      }
      const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
      const grace = new Promise<void>((resolve) => setTimeout(resolve, 2000).unref());
      await Promise.race([exited, grace]);
      if (!ended) child.kill("SIGKILL");
    },
  };
}
