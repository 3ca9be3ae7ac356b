/**
 * The SQLite connection as SkillOpt needs it when a web process and several workers share one file:
 * WAL (readers never block the writer, nor the writer them), `synchronous=NORMAL` (safe under WAL: a
 * power cut may lose the last commits, never corrupt the file), a busy timeout, write transactions that
 * take the write lock when they begin (`BEGIN IMMEDIATE`: a transaction that read first and wrote later
 * could otherwise fail at once when another process committed in between), a transaction end that
 * never leaves the connection stuck inside a transaction, and every write of the process through one
 * SerialWriter.
 */
import type Database from "better-sqlite3";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { PrismaClient as SqliteClient } from "../../generated/prisma-sqlite/client";
import type { SerialWriter } from "./sqlite-writer";

/**
 * How long one statement waits for another process's lock. better-sqlite3 waits synchronously (the
 * event loop stands still meanwhile), so this stays short and the writer's retries, which wait
 * asynchronously, ride out longer waits.
 */
export const BUSY_TIMEOUT_MS = 2_000;

/** Per-connection settings; `journal_mode=WAL` is also stored in the file. */
export const SQLITE_PRAGMAS = [
  "journal_mode = WAL",
  "synchronous = NORMAL",
  `busy_timeout = ${BUSY_TIMEOUT_MS}`,
] as const;

type Adapter = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;

/** The adapter keeps its better-sqlite3 handle in `client`; we need it to change how it begins transactions. */
function handleOf(adapter: Adapter): Database.Database {
  const client = (adapter as unknown as { client?: Database.Database }).client;
  if (!client || typeof client.prepare !== "function") {
    throw new Error(
      "@prisma/adapter-better-sqlite3 changed shape (no `client` handle): lib/db/sqlite.ts needs updating",
    );
  }
  return client;
}

/**
 * PrismaBetterSQLite3 with our pragmas, `BEGIN IMMEDIATE`, and a transaction end that cannot wedge the
 * connection. `pragmas` is replaceable for tests that need the old rollback journal.
 */
export class TunedSqliteAdapter {
  readonly provider = "sqlite" as const;
  readonly adapterName: string;
  private readonly inner: PrismaBetterSQLite3;

  constructor(
    url: string,
    private readonly pragmas: readonly string[] = SQLITE_PRAGMAS,
  ) {
    this.inner = new PrismaBetterSQLite3({ url, timeout: BUSY_TIMEOUT_MS });
    this.adapterName = this.inner.adapterName;
  }

  async connect(): Promise<Adapter> {
    return tune(await this.inner.connect(), this.pragmas);
  }

  async connectToShadowDb(): Promise<Adapter> {
    return tune(await this.inner.connectToShadowDb(), this.pragmas);
  }
}

function tune(adapter: Adapter, pragmas: readonly string[]): Adapter {
  const handle = handleOf(adapter);
  for (const p of pragmas) handle.pragma(p);
  const prepare = handle.prepare.bind(handle);
  // The adapter begins every interactive transaction with a plain (deferred) BEGIN.
  handle.prepare = ((sql: string) => prepare(sql === "BEGIN" ? "BEGIN IMMEDIATE" : sql)) as typeof handle.prepare;
  const start = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (level) => closeSafely(await start(level), handle);
  return adapter;
}

type Tx = Awaited<ReturnType<Adapter["startTransaction"]>>;

/**
 * Prisma ends a transaction by sending COMMIT (or ROLLBACK) and only then calling the adapter's
 * commit()/rollback(), which releases the adapter's transaction lock. When that statement fails — a
 * COMMIT that met SQLITE_BUSY, as happened under the old rollback journal while browsers were reading —
 * the second call never comes: the connection stays inside the transaction holding the write lock
 * (every other process's writes then time out) and this process's next transaction waits for the lock
 * forever (Prisma's maxWait does not end that wait). So a failed end rolls back and releases the lock
 * here, then reports the failure, which the writer path retries as a whole.
 */
function closeSafely(tx: Tx, handle: Database.Database): Tx {
  const executeRaw = tx.executeRaw.bind(tx);
  tx.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (err) {
      if (query.sql === "COMMIT" || query.sql === "ROLLBACK") {
        if (handle.inTransaction) {
          try {
            handle.exec("ROLLBACK");
          } catch {
            // Nothing more to undo: SQLite already ended the transaction, or the connection is gone.
          }
        }
        await tx.rollback();
      }
      throw err;
    }
  };
  return tx;
}

const WRITE_OPS = new Set([
  "create",
  "createMany",
  "createManyAndReturn",
  "update",
  "updateMany",
  "updateManyAndReturn",
  "upsert",
  "delete",
  "deleteMany",
]);
const RAW_WRITES = new Set(["$executeRaw", "$executeRawUnsafe"]);

/** Wraps one model delegate (db.run, db.runEvent …) so its write methods go through the writer. */
function delegateProxy(model: string, delegate: object, writer: SerialWriter): object {
  return new Proxy(delegate, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof prop !== "string" || typeof value !== "function") return value;
      if (!WRITE_OPS.has(prop)) return value.bind(target);
      return (...args: unknown[]) =>
        writer.run(`${model}.${prop}`, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
}

/**
 * The client every caller gets on SQLite: reads go straight to the connection; `$transaction(fn)`,
 * model writes and `$executeRaw*` go through `writer`. Inside a transaction the callback receives
 * Prisma's own transaction client, so its statements are never queued behind the transaction itself.
 */
export function withWriterPath(db: SqliteClient, writer: SerialWriter): SqliteClient {
  const delegates = new Map<string, object>();
  return new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof prop !== "string") return value;
      if (prop === "$transaction") {
        return (arg: unknown, opts?: unknown) => {
          // Array transactions hold PrismaPromises of the raw client; ours resolve eagerly, so only the callback form is supported.
          if (typeof arg !== "function")
            throw new Error("SQLite writer path: use db.$transaction(async (tx) => …), not the array form");
          return writer.run("transaction", () =>
            target.$transaction(arg as Parameters<SqliteClient["$transaction"]>[0], opts as never),
          );
        };
      }
      if (RAW_WRITES.has(prop))
        return (...args: unknown[]) =>
          writer.run(prop, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      if (typeof value === "function") return value.bind(target);
      if (
        value !== null &&
        typeof value === "object" &&
        typeof (value as { findMany?: unknown }).findMany === "function"
      ) {
        let d = delegates.get(prop);
        if (!d) delegates.set(prop, (d = delegateProxy(prop, value, writer)));
        return d;
      }
      return value;
    },
  });
}
