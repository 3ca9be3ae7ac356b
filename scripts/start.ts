/**
 * `npm start` (production) and `npm run dev`: migrate the database, find or start Redis, build the
 * dashboard when its sources changed, then run the Next.js server and the worker side by side. One
 * Ctrl-C stops everything cleanly.
 */
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { env } from "../lib/config/env";
import { ensureBuild } from "./start/build";
import { migrateDatabase } from "./start/migrate";
import { ensureRedis, type RedisHandle } from "./start/redis";
import { superviseWorker, type Supervisor } from "./start/supervise";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.PORT ?? "7860" },
    host: { type: "string", default: "127.0.0.1" },
    dev: { type: "boolean", default: false },
    "no-worker": { type: "boolean", default: false },
  },
});
const port = Number(values.port);
const host = values.host!;
const say = (m: string) => process.stdout.write(`[skillopt] ${m}\n`);
const fail = (m: string): never => {
  process.stderr.write(`[skillopt] error: ${m}\n`);
  process.exit(1);
};

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);
const WILDCARD = new Set(["0.0.0.0", "::"]);
/** How long the dashboard and the worker get to stop on Ctrl-C before they are killed. */
const STOP_GRACE_MS = 4_500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port must be 1-65535 (got ${values.port})`);
  const cfg = (() => {
    try {
      return env();
    } catch (e) {
      return fail((e as Error).message);
    }
  })();
  if (!LOOPBACK.has(host) && !cfg.SKILLOPT_AUTH_TOKEN) {
    fail(
      `--host ${host} exposes the dashboard beyond this machine; set SKILLOPT_AUTH_TOKEN first (every request must then carry it)`,
    );
  }
  if (WILDCARD.has(host) && cfg.SKILLOPT_ALLOWED_HOSTS.length === 0) {
    say(
      `note: only loopback names reach the dashboard until SKILLOPT_ALLOWED_HOSTS lists the names or addresses you browse to (e.g. my-box.lan,192.168.1.5)`,
    );
  }
  say(`database: ${cfg.DATABASE_URL.startsWith("file:") ? cfg.DATABASE_URL.slice(5) : "PostgreSQL"}`);
  await migrateDatabase(cfg.DATABASE_URL, { say }).catch((e: Error) => fail(e.message));
  const redis: RedisHandle = await ensureRedis(cfg.REDIS_URL, {
    explicit: process.env.REDIS_URL !== undefined && process.env.REDIS_URL !== "",
    say,
  }).catch((e: Error) => fail(e.message));
  if (!values.dev) await ensureBuild(say).catch((e: Error) => fail(e.message));

  // SKILLOPT_HOST tells the dashboard's Host allow-list what it was bound to.
  const childEnv = {
    ...process.env,
    DATABASE_URL: cfg.DATABASE_URL,
    REDIS_URL: redis.url,
    SKILLOPT_HOST: host,
    NEXT_TELEMETRY_DISABLED: "1",
  };
  const next = spawn("./node_modules/.bin/next", [values.dev ? "dev" : "start", "-p", String(port), "-H", host], {
    stdio: "inherit",
    env: childEnv,
  });
  // The worker is supervised: one that dies is started again (with backoff) while the dashboard keeps serving.
  const worker: Supervisor | null = values["no-worker"]
    ? null
    : superviseWorker({
        spawn: () =>
          spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], { stdio: "inherit", env: childEnv }),
        say,
      });
  const children = () => [next, ...(worker?.current() ? [worker.current()!] : [])];
  say(`dashboard: http://${host.includes(":") ? `[${host}]` : host}:${port}  (Ctrl-C stops everything)`);

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say("stopping…");
    worker?.stop();
    const running = () => children().filter((c) => c.exitCode === null && c.signalCode === null);
    for (const c of running()) c.kill("SIGTERM");
    const exited = Promise.all(running().map((c) => new Promise((r) => c.once("exit", r))));
    // The worker stops within its own grace period; whatever is still up after ours is killed, so one
    // Ctrl-C always ends everything.
    if ((await Promise.race([exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)])) === false) {
      for (const c of running()) {
        say(`${c === next ? "dashboard" : "worker"} did not stop within ${STOP_GRACE_MS} ms; killing it`);
        c.kill("SIGKILL");
      }
      await exited;
    }
    await redis.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  // Without the dashboard there is nothing to serve: its exit stops everything.
  next.on("exit", (code) => {
    if (!stopping) {
      process.stderr.write(`[skillopt] dashboard exited (${code}); stopping\n`);
      void stop(code ?? 1);
    }
  });
}

void main();
