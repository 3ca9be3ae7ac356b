/**
 * Real processes for recovery tests: a private redis-server the test can kill and restart empty on the
 * same port, and worker processes (`worker/index.ts`) with short lock intervals that the test can SIGKILL
 * or SIGTERM. `stopWorkers()` stops every worker started here; the Redis server stops with `kill()`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "../..");
const started = new Set<ChildProcess>();

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function exited(p: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) return resolve();
    p.once("exit", () => resolve());
  });
}

export interface RedisServer {
  url: string;
  /** SIGKILL: everything in it is gone (it keeps no data on disk). */
  kill(): Promise<void>;
  /** A new, empty server on the same port. */
  start(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "skillopt-redis-"));
  let proc: ChildProcess | null = null;
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      proc = spawn(
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
        { stdio: "ignore" },
      );
      for (let i = 0; i < 100; i++) {
        if (spawnSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8" }).stdout?.includes("PONG")) return;
        await sleep(50);
      }
      throw new Error(`redis-server on ${port} did not start`);
    },
    async kill() {
      if (!proc) return;
      const p = proc;
      proc = null;
      p.kill("SIGKILL");
      await exited(p);
    },
  };
  await server.start();
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return server;
}

export interface WorkerProcess {
  id: string;
  ready: Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  exited(): Promise<void>;
  log(): string;
}

/** A worker process like `npm run worker`, with a killed worker's job detected within seconds. */
export function startWorkerProcess(id: string, env: Record<string, string>): WorkerProcess {
  const proc = spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], {
    cwd: root,
    env: {
      ...process.env,
      WORKER_ID: id,
      WORKER_LOCK_MS: "4000",
      WORKER_STALLED_INTERVAL_MS: "1500",
      WORKER_CONCURRENCY: "2",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.add(proc);
  let out = "";
  const ready = new Promise<void>((resolve, reject) => {
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes(" ready (")) resolve();
    });
    proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    proc.once("exit", (code, signal) =>
      reject(new Error(`worker ${id} exited (${code ?? signal}) before it was ready:\n${out}`)),
    );
  });
  ready.catch(() => {});
  proc.on("exit", (code, signal) => {
    out += `\n[worker ${id} exited: code ${code}, signal ${signal}]\n`;
    started.delete(proc);
  });
  return {
    id,
    ready,
    log: () => out,
    exited: () => exited(proc),
    async kill(signal = "SIGKILL") {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill(signal);
      await exited(proc);
    },
  };
}

/** Stops every worker process this module started (SIGKILL), e.g. after each test. */
export async function stopWorkers(): Promise<void> {
  await Promise.all(
    [...started].map((p) => {
      p.kill("SIGKILL");
      return exited(p);
    }),
  );
  started.clear();
}

/** Polls `fn` until `ok` holds; the error names the last value. */
export async function until<T>(
  fn: () => Promise<T>,
  ok: (v: T) => boolean,
  ms = 60_000,
  what = "condition",
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(v)}`);
    await sleep(100);
  }
}
