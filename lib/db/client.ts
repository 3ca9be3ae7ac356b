/**
 * One Prisma API over two generated clients (same schema template, different provider). The provider is
 * chosen by the DATABASE_URL scheme: file:… → SQLite, postgres(ql)://… → PostgreSQL.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as PgClient } from "../../generated/prisma-pg/client";
import { PrismaClient as SqliteClient } from "../../generated/prisma-sqlite/client";
import { env } from "../config/env";
import { TunedSqliteAdapter, withWriterPath } from "./sqlite";
import { SerialWriter } from "./sqlite-writer";

/** Both clients come from one template, so their model APIs match; we expose the SQLite type. */
export type Db = SqliteClient;
/** A client or an interactive transaction, for repository functions that compose. */
export type DbTx = Omit<Db, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;
export type DbProvider = "sqlite" | "postgresql";

/** Which SQL dialect a client or an interactive transaction speaks (both carry their client's provider). */
export function providerOfDb(db: DbTx): DbProvider {
  const p = (db as { _activeProvider?: string })._activeProvider;
  if (p === "sqlite" || p === "postgresql") return p;
  throw new Error(`unknown database provider '${String(p)}'`);
}

export function providerOf(url: string): DbProvider {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  throw new Error(`DATABASE_URL must start with file: or postgresql:// (got ${url.split(":")[0]}:)`);
}

/**
 * Interactive transactions on SQLite wait for the writer path, not for Prisma's adapter lock, so the wait
 * to start is short; a large event (a whole batch of evaluation results) may take a while to write.
 */
const SQLITE_TX_OPTIONS = { maxWait: 10_000, timeout: 60_000 };

/**
 * A client for `url`. On SQLite every write of the client goes through one SerialWriter (see
 * lib/db/sqlite.ts); PostgreSQL gets the stock client.
 */
export function createDb(url: string): Db {
  if (providerOf(url) === "sqlite") {
    mkdirSync(dirname(url.slice("file:".length)), { recursive: true });
    const writer = new SerialWriter();
    const db = withWriterPath(
      new SqliteClient({ adapter: new TunedSqliteAdapter(url), transactionOptions: SQLITE_TX_OPTIONS }),
      writer,
    );
    WRITERS.set(db, writer);
    return db;
  }
  return new PgClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as Db;
}

const WRITERS = new WeakMap<Db, SerialWriter>();

/** The writer path's counters and latency of a SQLite client (null on PostgreSQL), for logs and benches. */
export function writerStatsOf(db: Db): SerialWriter["stats"] | null {
  return WRITERS.get(db)?.stats ?? null;
}

// One client per process (it also survives Next dev hot reloads).
const g = globalThis as unknown as { __skilloptDb?: Db };
export function getDb(): Db {
  return (g.__skilloptDb ??= createDb(env().DATABASE_URL));
}

/** One line on the process's SQLite writer path (null before any use, or on PostgreSQL), for the shutdown log. */
export function writerSummary(): string | null {
  return g.__skilloptDb ? (writerStatsOf(g.__skilloptDb)?.summary() ?? null) : null;
}

export async function closeDb(): Promise<void> {
  await g.__skilloptDb?.$disconnect();
  g.__skilloptDb = undefined;
}
