/**
 * `npm start`'s database step. A SQLite file whose migrations are all applied is left alone (read-only
 * check), so a second dashboard or a restart beside a busy worker never needs the write lock; otherwise
 * `prisma migrate deploy` runs, and is retried while another process holds the database busy.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import Database from "better-sqlite3";

const SQLITE_MIGRATIONS = "prisma/sqlite/migrations";
const BUSY = /SocketTimeout|database is locked|SQLITE_BUSY/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Migration folders not yet applied to the SQLite file at `file:` URL `url` (all of them for a new file). */
export function pendingSqliteMigrations(url: string, dir = SQLITE_MIGRATIONS): string[] {
  const wanted = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const path = url.slice("file:".length);
  // The CLI adapter and the app open a relative path from the working directory, as we do here.
  const file = isAbsolute(path) ? path : resolve(path);
  if (!existsSync(file)) return wanted;
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5_000 });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return wanted;
    const done = new Set(
      (
        db
          .prepare(
            "SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
          )
          .all() as { name: string }[]
      ).map((r) => r.name),
    );
    return wanted.filter((m) => !done.has(m));
  } finally {
    db.close();
  }
}

export interface MigrateOptions {
  say: (m: string) => void;
  attempts?: number;
  /** Runs `prisma migrate deploy`; injected by tests. */
  deploy?: (url: string) => { status: number | null; stdout: string; stderr: string };
  delayMs?: number;
}

function deployWithCli(url: string) {
  const r = spawnSync(process.execPath, [join("scripts", "prisma.mjs"), "migrate", "deploy"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** Brings the database up to date; throws with prisma's output when it cannot. */
export async function migrateDatabase(url: string, opts: MigrateOptions): Promise<void> {
  if (url.startsWith("file:") && pendingSqliteMigrations(url).length === 0) return;
  const attempts = opts.attempts ?? 5;
  const deploy = opts.deploy ?? deployWithCli;
  for (let attempt = 1; ; attempt++) {
    const r = deploy(url);
    if (r.status === 0) return;
    const output = `${r.stdout}\n${r.stderr}`;
    if (!BUSY.test(output) || attempt >= attempts) throw new Error(`database migration failed:\n${output}`);
    opts.say(
      `database is busy (another SkillOpt process is writing); migration attempt ${attempt + 1} of ${attempts}…`,
    );
    await sleep((opts.delayMs ?? 1_000) * attempt);
  }
}
