/**
 * The integration tests' shared setup, registered as the calling file's beforeAll/afterAll: a fresh
 * database of the given provider, and optionally a private redis-server (REDIS_URL pointed at it, the
 * queue client reopened) with worker processes on both. Everything it changes — REDIS_URL,
 * DATABASE_URL, the default database — is put back afterwards.
 *
 *   const stack = useStack({ redis: true, defaultDb: true });
 *   it("…", async () => { const w = stack.worker("w0"); await w.ready; … stack.db … });
 */
import { afterAll, afterEach, beforeAll, onTestFailed } from "vitest";
import { resetEnvCache } from "../../lib/config/env";
import type { Db } from "../../lib/db/client";
import { closeQueue } from "../../lib/queue/producer";
import { freshDb, useAsDefaultDb, type Provider } from "./db";
import { startRedisServer, startWorkerProcess, stopWorkers, type RedisServer, type WorkerProcess } from "./processes";

export interface StackOptions {
  provider?: Provider;
  /** A private redis-server, REDIS_URL set to it; worker processes are stopped after each test and at the end. */
  redis?: boolean;
  /** `getDb()` (route handlers, lib/db defaults) returns this database's client. */
  defaultDb?: boolean;
  /** DATABASE_URL names this database (code that picks its SQL dialect from it, as the dashboard does). */
  databaseUrlEnv?: boolean;
}

export interface Stack {
  readonly db: Db;
  readonly dbUrl: string;
  readonly redis: RedisServer;
  /** A worker process on this database and Redis; its log is printed if the test fails. */
  worker(id: string, env?: Record<string, string>): WorkerProcess;
}

function restoreEnv(name: string, saved: string | undefined): void {
  if (saved === undefined) delete process.env[name];
  else process.env[name] = saved;
}

export function useStack(opts: StackOptions = {}): Stack {
  let db: Db | null = null;
  let dbUrl = "";
  let redis: RedisServer | null = null;
  const saved = { REDIS_URL: process.env.REDIS_URL, DATABASE_URL: process.env.DATABASE_URL };
  const ready = <T>(v: T | null, what: string): T => {
    if (v === null) throw new Error(`useStack: ${what} is only there inside tests (after beforeAll)`);
    return v;
  };

  beforeAll(async () => {
    if (opts.redis) {
      redis = await startRedisServer();
      process.env.REDIS_URL = redis.url;
      resetEnvCache();
      await closeQueue();
    }
    ({ db, url: dbUrl } = await freshDb(opts.provider ?? "sqlite"));
    if (opts.defaultDb) useAsDefaultDb(db);
    if (opts.databaseUrlEnv) {
      process.env.DATABASE_URL = dbUrl;
      resetEnvCache();
    }
  }, 180_000); // a first migration plus a redis-server start can pass a minute on a loaded machine
  // A test that fails halfway must not leave workers that take the next test's jobs.
  if (opts.redis) afterEach(stopWorkers);
  afterAll(async () => {
    if (opts.redis) {
      await stopWorkers();
      await closeQueue();
      await redis?.kill();
      restoreEnv("REDIS_URL", saved.REDIS_URL);
    }
    if (opts.databaseUrlEnv) restoreEnv("DATABASE_URL", saved.DATABASE_URL);
    resetEnvCache();
    await db?.$disconnect();
  });

  return {
    get db() {
      return ready(db, "the database");
    },
    get dbUrl() {
      return ready(db, "the database") && dbUrl;
    },
    get redis() {
      return ready(redis, opts.redis ? "Redis" : "Redis (useStack({ redis: true }))");
    },
    worker(id, env = {}) {
      const w = startWorkerProcess(id, { DATABASE_URL: this.dbUrl, REDIS_URL: this.redis.url, ...env });
      onTestFailed(() => console.log(`--- worker ${id} ---\n${w.log()}`));
      return w;
    },
  };
}
