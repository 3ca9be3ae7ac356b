/**
 * Redis for `npm start`: REDIS_URL when set (it must answer); else a server on 127.0.0.1:6379 when one
 * answers; else a private redis-server started here (no persistence: the worker re-queues runs from the
 * database on start), installing the package first when the machine allows it; else stop with instructions.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { ensurePackages, requirementsFor, type EnsureResult } from "../../lib/system/index.mjs";

export interface RedisHandle {
  url: string;
  /** The private redis-server's process id (none when an existing Redis is used). */
  pid?: number;
  stop(): Promise<void>;
}

/** True when something at host:port answers PING with PONG. */
export function pingRedis(host: string, port: number, timeoutMs = 800): Promise<boolean> {
  return new Promise((resolve) => {
    const s = new Socket();
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once("error", () => done(false));
    s.connect(port, host, () => s.write("PING\r\n"));
    s.once("data", (d) => done(d.toString().startsWith("+PONG")));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface EnsureRedisOptions {
  /** REDIS_URL was set by the user: it must answer; nothing is started in its place. */
  explicit: boolean;
  say: (m: string) => void;
  /** The server binary (tests point it elsewhere). */
  bin?: string;
  /** Makes sure the redis-server package is installed, installing it when allowed (tests inject a fake). */
  installServer?: (say: (m: string) => void) => Promise<EnsureResult>;
}

const installRedisPackage = (say: (m: string) => void) =>
  ensurePackages(requirementsFor("redis"), {
    purpose: "npm start",
    say: (line) => say(`redis: ${line}`),
    env: process.env,
  });

const hasBinary = (bin: string) => !spawnSync(bin, ["--version"], { stdio: "ignore" }).error;

export async function ensureRedis(url: string, opts: EnsureRedisOptions): Promise<RedisHandle> {
  const { explicit, say, bin = "redis-server", installServer = installRedisPackage } = opts;
  const u = new URL(url);
  const port = Number(u.port || 6379);
  if (await pingRedis(u.hostname, port)) {
    say(`redis: ${u.hostname}:${port}`);
    return { url, stop: async () => {} };
  }
  if (explicit)
    throw new Error(
      `REDIS_URL=${url} does not answer; start that Redis or unset REDIS_URL to let SkillOpt start its own`,
    );
  if (!hasBinary(bin)) {
    const installed = await installServer(say);
    const alternatives = "or set REDIS_URL=redis://host:port (on macOS: brew install redis)";
    if (!installed.ok)
      throw new Error(
        `no Redis answers at ${u.hostname}:${port} and redis-server is not installed: ${installed.reason}. Install it with: ${installed.command}, ${alternatives}`,
      );
    if (!hasBinary(bin))
      throw new Error(`no Redis answers at ${u.hostname}:${port} and ${bin} cannot be run; ${alternatives}`);
  }
  const own = await freePort();
  mkdirSync(".skillopt/redis", { recursive: true });
  // Its own process group: a Ctrl-C in the terminal reaches the dashboard and the worker but not Redis,
  // which stays up until they have stopped (the worker puts its active runs back in the queue on the way out).
  const child = spawn(
    bin,
    ["--port", String(own), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", ".skillopt/redis"],
    { stdio: "ignore", detached: true },
  );
  for (let i = 0; i < 50 && !(await pingRedis("127.0.0.1", own)); i++) await new Promise((r) => setTimeout(r, 100));
  if (!(await pingRedis("127.0.0.1", own))) throw new Error(`the private redis-server on port ${own} did not start`);
  say(`redis: started a private redis-server on 127.0.0.1:${own}`);
  return {
    url: `redis://127.0.0.1:${own}`,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
