/**
 * One Prisma API over two generated clients (same schema template, different provider). The provider is
 * chosen by the DATABASE_URL scheme: file:… → SQLite, postgres(ql)://… → PostgreSQL.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as PgClient } from "../../generated/prisma-pg/client";
import { PrismaClient as SqliteClient } from "../../generated/prisma-sqlite/client";
import { env } from "../config/env";

/** Both clients come from one template, so their model APIs match; we expose the SQLite type. */
export type Db = SqliteClient;
/** A client or an interactive transaction, for repository functions that compose. */
export type DbTx = Omit<Db, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;
export type DbProvider = "sqlite" | "postgresql";

export function providerOf(url: string): DbProvider {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  throw new Error(`DATABASE_URL must start with file: or postgresql:// (got ${url.split(":")[0]}:)`);
}

export function createDb(url: string): Db {
  if (providerOf(url) === "sqlite") {
    mkdirSync(dirname(url.slice("file:".length)), { recursive: true });
    return new SqliteClient({ adapter: new PrismaBetterSQLite3({ url }) });
  }
  return new PgClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as Db;
}

// One client per process (it also survives Next dev hot reloads).
const g = globalThis as unknown as { __skilloptDb?: Db };
export function getDb(): Db {
  return (g.__skilloptDb ??= createDb(env().DATABASE_URL));
}

export async function closeDb(): Promise<void> {
  await g.__skilloptDb?.$disconnect();
  g.__skilloptDb = undefined;
}
