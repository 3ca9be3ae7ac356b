/**
 * Read-only file access for the JSONL sources: listing transcripts newest first and reading one as a
 * fixed-size snapshot (a live agent appending to it cannot extend the scan), line by line, skipping and
 * counting lines that are not JSON objects.
 */
import { open, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";

export interface FoundFile {
  path: string;
  mtimeMs: number;
}

export interface ListOptions {
  /** Descend into sub-folders. */
  recursive: boolean;
  accept(name: string): boolean;
  /** A folder that could not be listed (the root's own absence is reported by `listFiles` returning null). */
  onError(folder: string, err: NodeJS.ErrnoException): void;
}

/** The accepted files below `root`, newest modification first; null when `root` is not a folder. */
export async function listFiles(root: string, o: ListOptions): Promise<FoundFile[] | null> {
  try {
    if (!(await stat(root)).isDirectory()) return null;
  } catch {
    return null;
  }
  const found: FoundFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      o.onError(dir, err as NodeJS.ErrnoException);
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (o.recursive) await walk(full);
      } else if (e.isFile() && o.accept(e.name)) {
        const mtimeMs = await fileMtime(full);
        if (mtimeMs !== null) found.push({ path: full, mtimeMs });
      }
    }
  };
  await walk(root);
  // Ties broken by path so the order (and therefore the session cap) is deterministic.
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
}

/** The sub-folders of `dir`, or null when it cannot be listed (absent, not a folder, no permission). */
export async function subfolders(dir: string): Promise<string[] | null> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => path.join(dir, e.name));
  } catch {
    return null;
  }
}

/** Modification time, or null when the file vanished meanwhile (an agent rotating its store). */
export async function fileMtime(file: string): Promise<number | null> {
  try {
    return (await stat(file)).mtimeMs;
  } catch {
    return null;
  }
}

/** A parsed JSON object, or null for anything else (a bad line, an array, a scalar). */
export function parseObject(line: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(line);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The JSON-object lines of `file` as they were when it was opened. `onCorrupt` is called for every
 * non-blank line that is not a JSON object (including a half-written last line). Throws when the file
 * cannot be opened.
 */
export async function* readJsonl(file: string, onCorrupt: () => void): AsyncGenerator<Record<string, unknown>> {
  const handle = await open(file, "r");
  let size: number;
  try {
    size = (await handle.stat()).size;
  } catch (err) {
    await handle.close();
    throw err;
  }
  if (size === 0) {
    await handle.close();
    return;
  }
  // The stream owns the handle from here and closes it when it ends or is destroyed.
  const stream = handle.createReadStream({ start: 0, end: size - 1, encoding: "utf8" });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (line.trim() === "") continue;
      const rec = parseObject(line);
      if (rec) yield rec;
      else onCorrupt();
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}
