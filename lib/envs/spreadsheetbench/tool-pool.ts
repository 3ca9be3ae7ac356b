/**
 * A small pool of long-lived `xlsx_tool.py --serve` helpers (our code: workbook previews and the
 * comparison with the gold workbook). Importing openpyxl costs more than most comparisons, so a helper
 * answers many requests, one at a time, and exits by itself after a quiet spell; the pool starts a new
 * one when needed. The helpers do not keep Node alive, and a request that overruns its limit kills its
 * helper. The model's code never runs here (see sandbox.ts), but the workbooks it parses are the
 * model's output (any bytes a script chose to write), so a helper runs in the same sandbox as the
 * scripts, with the same memory limit: a parser bug or a zip/XML bomb reaches no network, no file
 * beyond the data and task folders, and no memory beyond the limit.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { tmpdir } from "node:os";
import { scrubbedEnv } from "./python";
import { pythonCommand, scratchRoot, type SandboxSettings } from "./sandbox";

/** A helper's answer: the value, or why there is none. */
export type ToolReply<T> = { ok: true; value: T } | { ok: false; message: string };

const IDLE_SECONDS = 20;
const EXITED = "the workbook helper exited";

class ToolServer {
  private child: ChildProcess | null = null;
  private buffer = "";
  private stderr = "";
  private pending: ((line: string | null) => void) | null = null;

  constructor(
    private readonly settings: SandboxSettings,
    private readonly readable: readonly string[],
  ) {}

  private start(): ChildProcess {
    // It writes nothing: the (empty, read-only in the sandbox) temp folder is its home.
    const home = tmpdir();
    const cmd = pythonCommand(
      this.settings,
      "xlsx_tool.py",
      ["--serve", String(IDLE_SECONDS), String(this.settings.memoryMb)],
      {
        // Requests name host paths: the data folders and the task folders are visible at their own paths.
        readable: [...this.readable, scratchRoot()],
      },
    );
    const child = spawn(cmd.command, cmd.args, {
      cwd: home,
      env: scrubbedEnv(
        this.settings.vars,
        this.settings.isolation.kind === "bwrap" ? "/tmp" : home,
      ) as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.buffer = "";
    this.stderr = "";
    child.stdout?.on("data", (d: Buffer) => {
      this.buffer += d.toString("utf8");
      const nl = this.buffer.indexOf("\n");
      if (nl >= 0 && this.pending) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.pending(line);
      }
    });
    child.stderr?.on("data", (d: Buffer) => {
      this.stderr = (this.stderr + d.toString("utf8")).slice(-4000);
    });
    child.stdin?.on("error", () => undefined); // a helper that died is reported through 'exit'
    child.on("exit", () => this.dispose(child));
    child.on("error", () => this.dispose(child));
    // Idle helpers must not hold the process open (the CLI exits when its work is done).
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr])
      (stream as unknown as { unref?: () => void } | null)?.unref?.();
    this.child = child;
    return child;
  }

  private dispose(child: ChildProcess): void {
    if (this.child !== child) return;
    this.child = null;
    this.pending?.(null);
  }

  private kill(): void {
    const child = this.child;
    if (!child) return;
    child.kill("SIGKILL");
    this.dispose(child);
  }

  /** One request; resolves (never rejects) with the reply, a timeout or the helper's last error. */
  request<T>(request: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<ToolReply<T>> {
    const child = this.child ?? this.start();
    return new Promise((resolve) => {
      let done = false;
      const finish = (reply: ToolReply<T>) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.pending = null;
        resolve(reply);
      };
      const timer = setTimeout(() => {
        finish({ ok: false, message: `the workbook helper took longer than ${Math.round(timeoutMs / 1000)}s` });
        this.kill();
      }, timeoutMs);
      const onAbort = () => {
        finish({ ok: false, message: "cancelled" });
        this.kill();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending = (line) => {
        if (line === null)
          return finish({ ok: false, message: `${EXITED}: ${this.stderr.trim().split("\n").pop() ?? ""}` });
        try {
          const parsed = JSON.parse(line) as { ok: boolean; value?: T; error?: string };
          finish(
            parsed.ok
              ? { ok: true, value: parsed.value as T }
              : { ok: false, message: parsed.error ?? "unknown error" },
          );
        } catch {
          finish({ ok: false, message: "the workbook helper answered with something that is not JSON" });
        }
      };
      child.stdin?.write(`${JSON.stringify(request)}\n`);
    });
  }
}

/** Options of an `XlsxToolPool`. */
export interface ToolPoolOptions {
  /** At most this many helpers at once. */
  size: number;
  /** Folders holding the workbooks requests name besides the task folders (the data root), read-only. */
  readable: readonly string[];
}

/** Up to `size` helpers; requests beyond that wait for a free one. */
export class XlsxToolPool {
  private readonly free: ToolServer[] = [];
  private created = 0;
  private readonly waiting: Array<(s: ToolServer) => void> = [];

  constructor(
    private readonly settings: SandboxSettings,
    private readonly opts: ToolPoolOptions,
  ) {}

  async call<T>(request: Record<string, unknown>, signal?: AbortSignal): Promise<ToolReply<T>> {
    const server = await this.acquire();
    try {
      const limit = Math.max(this.settings.timeoutSec, 30) * 1000;
      const reply = await server.request<T>(request, limit, signal);
      // A helper may time out idle just as a request arrives: one retry on a fresh helper covers that.
      if (!reply.ok && reply.message.startsWith(EXITED) && !signal?.aborted)
        return await server.request<T>(request, limit, signal);
      return reply;
    } finally {
      const next = this.waiting.shift();
      if (next) next(server);
      else this.free.push(server);
    }
  }

  private acquire(): Promise<ToolServer> {
    const ready = this.free.pop();
    if (ready) return Promise.resolve(ready);
    if (this.created < this.opts.size) {
      this.created += 1;
      return Promise.resolve(new ToolServer(this.settings, this.opts.readable));
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}
