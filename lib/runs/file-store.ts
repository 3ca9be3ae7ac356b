/**
 * A CheckpointStore on a folder: each key is a path under the run's output folder, so the folder has the
 * original's layout (steps/, skills/, best_skill.md, history.json, summary.json …). Rows appended to
 * `…/results.jsonl` also write `predictions/<id>/conversation.json` beside it, as the original's rollouts do.
 *
 * It writes behind: a put or an append resolves once queued, so the engine never waits for the disk between
 * its model calls (a step makes hundreds of small writes). The writes themselves run on a worker thread
 * (./disk-writer.ts), so they do not take the main thread's time either. What keeps it crash-safe:
 * - every write lands in the order it was issued, and a read waits for the key's queued writes;
 * - each file is replaced atomically (temp file + rename), except prediction files, which land before
 *   their row's line: a torn one belongs to a row that is not stored, so its item runs (and writes) again;
 * - so the commit point (`runtime_state.json`) lands only after every write issued before it, and never
 *   names an artefact that is not on disk;
 * - the first failed write fails the store: every later call rejects with it and nothing more lands.
 * A killed process loses the writes still queued (the last moments of work, re-done on resume), never
 * consistency. `flush()` waits for everything; the engine calls it before a run returns.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, join, normalize, sep } from "node:path";
import type { CheckpointStore } from "../engine/ports";
import type { Trajectory } from "../engine/types";
import { DiskWriter, type DiskOp } from "./disk-writer";

/** Writes queued and not landed beyond which a write waits for some to land: a slow disk bounds memory. */
const MAX_QUEUED = 4096;

export class FileCheckpointStore implements CheckpointStore {
  /** Per key, the last queued write's landing: reads of the key wait for it. */
  private readonly tails = new Map<string, Promise<void>>();
  private readonly writer = new DiskWriter();

  constructor(readonly root: string) {}

  private path(key: string): string {
    const norm = normalize(key);
    if (isAbsolute(norm) || norm.split(sep).includes("..")) throw new Error(`invalid store key: ${key}`);
    return join(this.root, norm);
  }

  private check(): void {
    if (this.writer.failure) throw this.writer.failure.error;
  }

  private async read(key: string): Promise<string | undefined> {
    const p = this.path(key);
    await this.tails.get(key);
    this.check();
    // Most reads are of memos that do not exist yet (a fresh call's key): one stat answers them, where a
    // failed open through fs/promises cost the main thread a FileHandle round trip and an error's stack.
    if (!existsSync(p)) return undefined;
    try {
      return await readFile(p, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  }

  /** Queues the writes in order, after waiting (if the disk is far behind) for earlier ones to land. */
  private async enqueue(...ops: { key: string; op: DiskOp }[]): Promise<void> {
    this.check();
    while (this.writer.unlanded >= MAX_QUEUED) await this.writer.oldest();
    this.check();
    for (const { key, op } of ops) {
      const landed = this.writer.queue(op);
      this.tails.set(key, landed);
      void landed.then(() => {
        if (this.tails.get(key) === landed) this.tails.delete(key);
      });
    }
  }

  private put(key: string, data: string, atomic = true): { key: string; op: DiskOp } {
    return { key, op: { kind: "put", path: this.path(key), data, atomic } };
  }

  async getJson<T = unknown>(key: string): Promise<T | undefined> {
    const text = await this.read(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }
  async putJson(key: string, value: unknown): Promise<void> {
    await this.enqueue(this.put(key, `${JSON.stringify(value, null, 2)}\n`));
  }
  async getText(key: string): Promise<string | undefined> {
    return this.read(key);
  }
  async putText(key: string, text: string): Promise<void> {
    await this.enqueue(this.put(key, text));
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
    const ops: { key: string; op: DiskOp }[] = [];
    for (const row of rows) {
      const pred = join(dir, "predictions", safeSegment(row.id));
      const file = (name: string, text: string) => ops.push(this.put(join(pred, name), text, false));
      file("conversation.json", `${JSON.stringify(row.conversation, null, 2)}\n`);
      if (row.targetSystemPrompt) file("target_system_prompt.txt", row.targetSystemPrompt);
      if (row.targetUserPrompt) file("target_user_prompt.txt", row.targetUserPrompt);
    }
    await this.enqueue(...ops, this.append(key, rows));
  }

  async appendLine(key: string, ...values: unknown[]): Promise<void> {
    await this.enqueue(this.append(key, values));
  }

  private append(key: string, values: unknown[]): { key: string; op: DiskOp } {
    const data = values.map((v) => `${JSON.stringify(v)}\n`).join("");
    return { key, op: { kind: "append", path: this.path(key), data } };
  }

  /** Resolves once every write issued so far has landed; rejects with the first that failed. */
  async flush(): Promise<void> {
    await this.writer.drain();
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
