/**
 * A CheckpointStore on a folder: each key is a path under the run's output folder, so the folder has the
 * original's layout (steps/, skills/, best_skill.md, history.json, summary.json …). Rows appended to
 * `…/results.jsonl` also write `predictions/<id>/conversation.json` beside it, as the original's rollouts do.
 *
 * It writes behind: a put or an append resolves once queued, so the engine never waits for the disk between
 * its model calls (a step makes dozens of small writes, each several milliseconds on a busy disk). What
 * keeps it crash-safe:
 * - writes of one key land in the order they were issued, and a read waits for the key's queued writes;
 * - each file is replaced atomically (temp file + rename), except prediction files, which land before
 *   their row's line: a torn one belongs to a row that is not stored, so its item runs (and writes) again;
 * - the commit point (`runtime_state.json`) lands only after every write issued before it, so it never
 *   names an artefact that is not on disk;
 * - the first failed write fails the store: every later call rejects with it and nothing more lands.
 * A killed process loses the writes still queued (the last moments of work, re-done on resume), never
 * consistency. `flush()` waits for everything; the engine calls it before a run returns.
 */
import { appendFile, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, normalize, sep } from "node:path";
import type { CheckpointStore } from "../engine/ports";
import type { Trajectory } from "../engine/types";

/** The engine's commit point (lib/engine/state.ts). */
const COMMIT_KEYS = ["runtime_state.json"];
/** Queued writes beyond which a put waits for some to land, so a slow disk bounds memory, not the queue. */
const MAX_QUEUED = 512;

type Batch = { lines: string[]; before: Promise<void>[] };

export class FileCheckpointStore implements CheckpointStore {
  /** Per key, the last queued write: the next write of the key and reads of it wait for it. */
  private readonly tails = new Map<string, Promise<void>>();
  private readonly queued = new Set<Promise<void>>();
  /** Per `.jsonl` key, the lines waiting for an append that has not started: they go out in one write. */
  private readonly batches = new Map<string, Batch>();
  private readonly madeDirs = new Set<string>();
  private failure: { error: unknown } | null = null;
  private tmpCounter = 0;

  constructor(readonly root: string) {}

  private path(key: string): string {
    const norm = normalize(key);
    if (isAbsolute(norm) || norm.split(sep).includes("..")) throw new Error(`invalid store key: ${key}`);
    return join(this.root, norm);
  }

  private check(): void {
    if (this.failure) throw this.failure.error;
  }

  private async read(key: string): Promise<string | undefined> {
    const p = this.path(key);
    await this.tails.get(key);
    this.check();
    try {
      return await readFile(p, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  }

  private async ensureDir(dir: string): Promise<void> {
    if (this.madeDirs.has(dir)) return;
    await mkdir(dir, { recursive: true });
    this.madeDirs.add(dir);
  }

  /**
   * Queues `op` for `key` after the key's earlier writes (after every earlier write for a commit key) and
   * `before`. `landed` settles when the write has landed and never rejects (a failure is kept for the next
   * call); it is wrapped so that awaiting the enqueue does not wait for it.
   */
  private async enqueue(
    key: string,
    op: () => Promise<void>,
    before: Promise<void>[] = [],
  ): Promise<{ landed: Promise<void> }> {
    this.check();
    while (this.queued.size >= MAX_QUEUED) await Promise.race(this.queued);
    const after = COMMIT_KEYS.includes(key) ? [...this.queued] : [this.tails.get(key) ?? Promise.resolve()];
    const done = Promise.all([...after, ...before])
      .then(async () => {
        if (!this.failure) await op();
      })
      .catch((error: unknown) => {
        this.failure ??= { error };
      });
    this.tails.set(key, done);
    this.queued.add(done);
    void done.then(() => {
      this.queued.delete(done);
      if (this.tails.get(key) === done) this.tails.delete(key);
    });
    return { landed: done };
  }

  private async write(key: string, data: string, atomic = true): Promise<{ landed: Promise<void> }> {
    const p = this.path(key);
    return this.enqueue(key, async () => {
      await this.ensureDir(dirname(p));
      if (!atomic) return writeFile(p, data, "utf8");
      const tmp = `${p}.tmp-${process.pid}-${this.tmpCounter++}`;
      await writeFile(tmp, data, "utf8");
      await rename(tmp, p);
    });
  }

  async getJson<T = unknown>(key: string): Promise<T | undefined> {
    const text = await this.read(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }
  async putJson(key: string, value: unknown): Promise<void> {
    await this.write(key, `${JSON.stringify(value, null, 2)}\n`);
  }
  async getText(key: string): Promise<string | undefined> {
    return this.read(key);
  }
  async putText(key: string, text: string): Promise<void> {
    await this.write(key, text);
  }

  async readRows(key: string): Promise<Trajectory[]> {
    const text = await this.read(key);
    if (!text) return [];
    const rows: Trajectory[] = [];
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        rows.push(JSON.parse(line) as Trajectory);
      } catch {
        // A torn last line from a killed process: that item simply runs again.
      }
    }
    return rows;
  }

  async appendRows(key: string, rows: Trajectory[]): Promise<void> {
    const dir = dirname(key);
    const files: Promise<void>[] = [];
    for (const row of rows) {
      const pred = join(dir, "predictions", safeSegment(row.id));
      const put = async (name: string, text: string) =>
        files.push((await this.write(join(pred, name), text, false)).landed);
      await put("conversation.json", `${JSON.stringify(row.conversation, null, 2)}\n`);
      if (row.targetSystemPrompt) await put("target_system_prompt.txt", row.targetSystemPrompt);
      if (row.targetUserPrompt) await put("target_user_prompt.txt", row.targetUserPrompt);
    }
    await this.append(key, rows, files);
  }

  async appendLine(key: string, ...values: unknown[]): Promise<void> {
    await this.append(key, values, []);
  }

  /** Adds lines to the key's waiting batch, or starts one: appends that queue up go out in one write. */
  private async append(key: string, values: unknown[], before: Promise<void>[]): Promise<void> {
    const p = this.path(key);
    const lines = values.map((v) => `${JSON.stringify(v)}\n`);
    const open = this.batches.get(key);
    if (open) {
      this.check();
      open.lines.push(...lines);
      open.before.push(...before);
      return;
    }
    const batch: Batch = { lines, before: [...before] };
    this.batches.set(key, batch);
    await this.enqueue(key, async () => {
      this.batches.delete(key);
      await Promise.all(batch.before);
      if (this.failure) return;
      await this.ensureDir(dirname(p));
      await appendFile(p, batch.lines.join(""), "utf8");
    });
  }

  /** Resolves once every write issued so far has landed; rejects with the first that failed. */
  async flush(): Promise<void> {
    while (this.queued.size > 0) await Promise.all(this.queued);
    this.check();
  }
}

/** An item id as one safe path segment. */
export function safeSegment(id: string): string {
  const s = id
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .replace(/^[_.]+|_+$/g, "")
    .slice(0, 120);
  return s || "item";
}
