/**
 * Fresh, migrated databases for integration tests: SQLite files copied from a template migrated once per
 * process, and PostgreSQL databases cloned from a template database on the private test server.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createDb, type Db } from "../../lib/db/client";

export type Provider = "sqlite" | "postgresql";
export const PROVIDERS: Provider[] = ["sqlite", "postgresql"];

const root = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "skillopt-it-"));
let sqliteTemplate: string | null = null;
let pgTemplate: string | null = null;

function migrate(url: string): void {
  const r = spawnSync(process.execPath, ["scripts/prisma.mjs", "migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`migrate deploy failed for ${url}:\n${r.stdout}\n${r.stderr}`);
}

function pgAdminUrl(): string {
  const url = process.env.TEST_PG_URL;
  if (!url) throw new Error("TEST_PG_URL is not set: run the integration suite through `npm test`");
  return url;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgAdminUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const dbUrl = (name: string) => pgAdminUrl().replace(/\/[^/]*$/, `/${name}`);

/** A new migrated database of `provider` and its URL. */
export async function freshDb(provider: Provider): Promise<{ db: Db; url: string }> {
  if (provider === "sqlite") {
    if (!sqliteTemplate) {
      sqliteTemplate = join(dir, "template.db");
      migrate(`file:${sqliteTemplate}`);
    }
    const file = join(dir, `${randomUUID()}.db`);
    copyFileSync(sqliteTemplate, file);
    const url = `file:${file}`;
    return { db: createDb(url), url };
  }
  if (!pgTemplate) {
    pgTemplate = `skillopt_tpl_${process.pid}`;
    await adminQuery(`CREATE DATABASE ${pgTemplate}`);
    migrate(dbUrl(pgTemplate));
  }
  const name = `skillopt_it_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${pgTemplate}`);
  const url = dbUrl(name);
  return { db: createDb(url), url };
}

/** Makes `getDb()` (used by route handlers and the worker) return this client. */
export function useAsDefaultDb(db: Db): void {
  (globalThis as unknown as { __skilloptDb?: Db }).__skilloptDb = db;
}
