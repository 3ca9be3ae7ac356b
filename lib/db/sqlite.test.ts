import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PrismaClient as SqliteClient } from "../../generated/prisma-sqlite/client";
import { createDb, writerStatsOf, type Db } from "./client";
import { BUSY_TIMEOUT_MS, TunedSqliteAdapter } from "./sqlite";

let dir: string;
let file: string;
let db: Db;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "skillopt-sqlite-"));
  file = join(dir, "t.db");
  db = createDb(`file:${file}`);
  await db.$executeRawUnsafe("CREATE TABLE t (v INTEGER)");
});
afterEach(async () => {
  await db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
});

const values = async () =>
  (await db.$queryRawUnsafe<Array<{ v: bigint | number }>>("SELECT v FROM t ORDER BY v")).map((r) => Number(r.v));

describe("the SQLite connection", () => {
  it("runs in WAL mode with synchronous=NORMAL and a busy timeout", async () => {
    const one = async (sql: string) =>
      Object.values((await db.$queryRawUnsafe<Array<Record<string, unknown>>>(sql))[0]!)[0];
    expect(await one("PRAGMA journal_mode")).toBe("wal");
    expect(Number(await one("PRAGMA synchronous"))).toBe(1); // NORMAL
    expect(Number(await one("PRAGMA busy_timeout"))).toBe(BUSY_TIMEOUT_MS);
  });

  it("a transaction holds the write lock from its first statement on, even when that statement reads", async () => {
    const other = new Database(file, { timeout: 0 });
    let otherCouldWrite: boolean | null = null;
    await db.$transaction(async (tx) => {
      await tx.$queryRawUnsafe("SELECT count(*) FROM t");
      try {
        other.prepare("BEGIN IMMEDIATE").run();
        other.prepare("ROLLBACK").run();
        otherCouldWrite = true;
      } catch {
        otherCouldWrite = false;
      }
      await tx.$executeRawUnsafe("INSERT INTO t VALUES (1)");
    });
    other.close();
    // With a deferred BEGIN the other process would get in between, and this transaction's later write could fail at once.
    expect(otherCouldWrite).toBe(false);
    expect(await values()).toEqual([1]);
  });
});

describe("a transaction whose COMMIT fails", () => {
  it("leaves neither the connection inside the transaction nor the next transaction waiting forever", async () => {
    // The old rollback journal: a COMMIT needs every reader gone, so a reader in another process (a
    // browser's SSE tail) makes it fail with SQLITE_BUSY.
    const oldJournal = new SqliteClient({
      adapter: new TunedSqliteAdapter(`file:${file}`, ["journal_mode = DELETE", "busy_timeout = 100"]),
    });
    await db.$disconnect();
    await oldJournal.$executeRawUnsafe("PRAGMA journal_mode = DELETE");
    const reader = new Database(file, { timeout: 0 });
    reader.prepare("BEGIN").run();
    reader.prepare("SELECT * FROM t").all();
    await expect(
      oldJournal.$transaction(async (tx) => tx.$executeRawUnsafe("INSERT INTO t VALUES (1)")),
    ).rejects.toThrow();
    reader.prepare("COMMIT").run();
    // Another process can write again: this connection no longer holds the write lock.
    reader.prepare("INSERT INTO t VALUES (2)").run();
    reader.close();
    const next = oldJournal.$transaction(async (tx) => tx.$executeRawUnsafe("INSERT INTO t VALUES (3)"));
    expect(
      await Promise.race([
        next.then(() => "committed"),
        new Promise((r) => setTimeout(() => r("still waiting"), 5_000)),
      ]),
    ).toBe("committed");
    const rows = (await oldJournal.$queryRawUnsafe<Array<{ v: bigint | number }>>("SELECT v FROM t ORDER BY v")).map(
      (r) => Number(r.v),
    );
    expect(rows).toEqual([2, 3]);
    await oldJournal.$disconnect();
  });
});

describe("the writer path", () => {
  it("model writes, raw writes and transactions are counted by the writer; reads are not", async () => {
    const stats = writerStatsOf(db)!;
    const before = stats.writes;
    await db.$executeRawUnsafe("INSERT INTO t VALUES (3)");
    await db.$transaction(async (tx) => tx.$executeRawUnsafe("INSERT INTO t VALUES (4)"));
    await db.run.deleteMany({ where: { id: "none" } }).catch(() => {}); // no Run table here: the write still went through the writer
    await values();
    expect(stats.writes - before).toBe(2);
    expect(stats.failed).toBe(1);
  });

  it("the array form of $transaction is refused with a clear message", () => {
    expect(() => db.$transaction([] as never)).toThrow(/use db\.\$transaction\(async \(tx\)/);
  });
});
