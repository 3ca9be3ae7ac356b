import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { migrateDatabase, pendingSqliteMigrations } from "./migrate";

const dir = mkdtempSync(join(tmpdir(), "skillopt-migrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const busy = {
  status: 1,
  stdout: "3 migrations found",
  stderr: "Error: Error in the underlying connector (WASM_ERROR): Error: unknown variant `SocketTimeout`",
};
const ok = { status: 0, stdout: "All migrations have been successfully applied.", stderr: "" };

describe("npm start's migration step", () => {
  it("a new SQLite file has every migration pending; once migrated, start-up does not run prisma (no write lock needed)", async () => {
    const url = `file:${join(dir, "fresh.db")}`;
    expect(pendingSqliteMigrations(url)).toContain("20261129000000_init");
    const r = spawnSync(process.execPath, ["scripts/prisma.mjs", "migrate", "deploy"], {
      env: { ...process.env, DATABASE_URL: url },
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(pendingSqliteMigrations(url)).toEqual([]);
    let calls = 0;
    await migrateDatabase(url, { say: () => {}, deploy: () => (calls++, ok) });
    expect(calls).toBe(0);
  });

  it("a file with a migration rolled back or missing still runs prisma", async () => {
    const url = `file:${join(dir, "partial.db")}`;
    expect(
      spawnSync(process.execPath, ["scripts/prisma.mjs", "migrate", "deploy"], {
        env: { ...process.env, DATABASE_URL: url },
      }).status,
    ).toBe(0);
    const db = new Database(url.slice(5));
    db.prepare("DELETE FROM _prisma_migrations WHERE migration_name = '20261130120000_run_recovery'").run();
    db.close();
    expect(pendingSqliteMigrations(url)).toEqual(["20261130120000_run_recovery"]);
    let calls = 0;
    await migrateDatabase(url, { say: () => {}, deploy: () => (calls++, ok) });
    expect(calls).toBe(1);
  });

  it("retries while another process holds the database busy, saying so, then succeeds", async () => {
    const said: string[] = [];
    const results = [busy, busy, ok];
    await migrateDatabase(`file:${join(dir, "busy.db")}`, {
      say: (m) => said.push(m),
      deploy: () => results.shift()!,
      delayMs: 1,
    });
    expect(results).toEqual([]);
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(/database is busy.*attempt 2 of 5/);
  });

  it("gives up after the last attempt, and fails at once on any other error, with prisma's output", async () => {
    let calls = 0;
    await expect(
      migrateDatabase(`file:${join(dir, "b2.db")}`, {
        say: () => {},
        attempts: 3,
        delayMs: 1,
        deploy: () => (calls++, busy),
      }),
    ).rejects.toThrow(/database migration failed:[\s\S]*SocketTimeout/);
    expect(calls).toBe(3);
    calls = 0;
    const broken = { status: 1, stdout: "", stderr: "P3009 migrate found failed migrations" };
    await expect(
      migrateDatabase("postgresql://x@127.0.0.1:1/db", { say: () => {}, delayMs: 1, deploy: () => (calls++, broken) }),
    ).rejects.toThrow(/P3009/);
    expect(calls).toBe(1);
  });
});
