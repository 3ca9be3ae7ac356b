/**
 * Reading an agent's live SQLite store without writing a byte next to it.
 *
 * A read-only connection is not enough for a WAL database: SQLite readers record read marks in the
 * `-shm` file and create `-wal`/`-shm` when they are missing, and a writer in exclusive locking mode
 * blocks readers altogether. So a WAL database (or one with a journal in flight, or one a read-only
 * open cannot read) is copied — the database and its `-wal`/`-journal` — into a private temporary
 * folder and read there; SQLite replays the copied WAL into the copy. The `-shm` is deliberately not
 * copied: it is a cache SQLite rebuilds from the WAL, and a copy taken at a different instant than the
 * WAL could describe frames that are not there. A rollback-journal database with no journal is read in
 * place with a read-only connection, which only takes locks.
 */
import Database from "better-sqlite3";
import { copyFileSync, existsSync, mkdtempSync, openSync, readSync, closeSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface OpenedStore {
  db: Database.Database;
  /** True when reading a private copy rather than the live file. */
  snapshot: boolean;
  close(): void;
}

/** Byte 18 of the database header is 2 in WAL mode (1 = rollback journal). */
function isWalDatabase(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const header = Buffer.alloc(20);
    return readSync(fd, header, 0, 20, 0) === 20 && header[18] === 2;
  } finally {
    closeSync(fd);
  }
}

function openInPlace(file: string, probe: string): OpenedStore | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: 1000 });
    db.prepare(probe).all();
    const opened = db;
    return { db: opened, snapshot: false, close: () => opened.close() };
  } catch {
    db?.close();
    return null;
  }
}

const COPY_ATTEMPTS = 3;

const fingerprint = (file: string) => {
  const st = statSync(file, { bigint: true });
  return `${st.size}:${st.mtimeNs}`;
};

/**
 * Copies the database, then its log. A checkpoint that writes into the database while we copy could
 * pair a newer database with an older log, so the copy is retried while the database file changes
 * under it (appends to the WAL alone are harmless: a partly copied last frame fails its checksum and
 * is ignored).
 */
function copyStore(file: string, copy: string): void {
  for (let attempt = 1; ; attempt++) {
    const before = fingerprint(file);
    copyFileSync(file, copy);
    for (const suffix of ["-wal", "-journal"]) {
      rmSync(copy + suffix, { force: true });
      if (existsSync(file + suffix)) copyFileSync(file + suffix, copy + suffix);
    }
    if (fingerprint(file) === before || attempt === COPY_ATTEMPTS) return;
  }
}

function openSnapshot(file: string, probe: string, tempDir: string): OpenedStore {
  const dir = mkdtempSync(path.join(tempDir || os.tmpdir(), "skillopt-sleep-harvest-"));
  const copy = path.join(dir, path.basename(file));
  let db: Database.Database | null = null;
  try {
    copyStore(file, copy);
    // Read-write on our own copy, so SQLite can replay the copied WAL or roll back the copied journal.
    db = new Database(copy, { fileMustExist: true });
    db.prepare(probe).all();
    const opened = db;
    return {
      db: opened,
      snapshot: true,
      close: () => {
        opened.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Opens `file` for reading as described above; `probe` is a query that must succeed (it proves the
 * expected schema is there). Throws when neither the file nor a private copy of it can be read.
 */
export function openStoreReadOnly(file: string, probe: string, tempDir: string): OpenedStore {
  if (!statSync(file).isFile()) throw new Error(`${file} is not a file`);
  if (!isWalDatabase(file) && !existsSync(`${file}-journal`)) {
    const inPlace = openInPlace(file, probe);
    if (inPlace) return inPlace;
  }
  return openSnapshot(file, probe, tempDir);
}
