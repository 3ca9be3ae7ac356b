/**
 * Test helpers for harvest: a throw-away home with our fixture transcripts copied in, file times set
 * explicitly (the order and the `since` pre-filter depend on them), and a fingerprint of a folder tree
 * to prove that a harvest wrote nothing.
 */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { HarvestOptions } from "./options";

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

/** A fresh temporary folder; `cleanup` removes it. */
export function makeTempHome(): { home: string; cleanup(): void } {
  const home = mkdtempSync(path.join(os.tmpdir(), "harvest-home-"));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** Copies `fixtures/<name>` to `dest` (created). */
export function installFixture(name: string, dest: string): void {
  cpSync(path.join(FIXTURES, name), dest, { recursive: true });
}

/**
 * Creates the SQLite database `file` from the SQL fixture `fixtures/<sqlFixture>`, in WAL or rollback
 * journal mode, and closes it (a closed WAL database has no -wal or -shm file left).
 */
export function buildSqlite(file: string, sqlFixture: string, journal: "wal" | "delete"): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma(`journal_mode = ${journal}`);
  db.exec(readFileSync(path.join(FIXTURES, sqlFixture), "utf8"));
  db.close();
}

/** Sets a file's access and modification time. */
export function setMtime(file: string, iso: string): void {
  const t = new Date(iso);
  utimesSync(file, t, t);
}

/** Every file and folder below `root` with its size, modification time and content hash, sorted. */
export function treeFingerprint(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const st = statSync(full);
      const rel = path.relative(root, full);
      if (st.isDirectory()) {
        out.push(`${rel}/ ${st.mtimeMs}`);
        walk(full);
      } else {
        out.push(`${rel} ${st.size} ${st.mtimeMs} ${createHash("sha256").update(readFileSync(full)).digest("hex")}`);
      }
    }
  };
  walk(root);
  return out;
}

/** A fixed clock at `iso`. */
export const fixedClock = (iso: string) => ({ now: () => Date.parse(iso) });

/** Options for a harvest of `home` on Linux with no environment, scope `all`, unless overridden. */
export function harvestOptions(home: string, over: Partial<HarvestOptions> = {}): HarvestOptions {
  return { source: "claude", home, platform: "linux", env: {}, scope: { kind: "all" }, ...over };
}
