/**
 * A CheckpointStore on a folder: each key is a path under the run's output folder, so the folder has the
 * original's layout (steps/, skills/, best_skill.md, history.json, summary.json …). Writes are atomic
 * (temp file + rename); appends to one file are serialised. Rows appended to `…/results.jsonl` also
 * write `predictions/<id>/conversation.json` beside it, as the original's rollouts do.
 */
import { appendFile, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, normalize, sep } from "node:path";
import type { CheckpointStore } from "../engine/ports";
import type { Trajectory } from "../engine/types";

export class FileCheckpointStore implements CheckpointStore {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly madeDirs = new Set<string>();
  private tmpCounter = 0;

  constructor(readonly root: string) {}

  private path(key: string): string {
    const norm = normalize(key);
    if (isAbsolute(norm) || norm.split(sep).includes("..")) throw new Error(`invalid store key: ${key}`);
    return join(this.root, norm);
  }

  private async read(key: string): Promise<string | undefined> {
    try {
      return await readFile(this.path(key), "utf8");
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

  private async write(key: string, data: string): Promise<void> {
    const p = this.path(key);
    await this.ensureDir(dirname(p));
    const tmp = `${p}.tmp-${process.pid}-${this.tmpCounter++}`;
    await writeFile(tmp, data, "utf8");
    await rename(tmp, p);
  }

  /** Runs `fn` after every earlier append to the same key has finished. */
  private serial(key: string, fn: () => Promise<void>): Promise<void> {
    const next = (this.chains.get(key) ?? Promise.resolve()).then(fn);
    this.chains.set(
      key,
      next.catch(() => {}),
    );
    return next;
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
    for (const row of rows) {
      const pred = join(dir, "predictions", safeSegment(row.id));
      await this.putJson(join(pred, "conversation.json"), row.conversation);
      if (row.targetSystemPrompt) await this.putText(join(pred, "target_system_prompt.txt"), row.targetSystemPrompt);
      if (row.targetUserPrompt) await this.putText(join(pred, "target_user_prompt.txt"), row.targetUserPrompt);
    }
    await this.appendLine(key, ...rows);
  }

  async appendLine(key: string, ...values: unknown[]): Promise<void> {
    const p = this.path(key);
    await this.serial(key, async () => {
      await this.ensureDir(dirname(p));
      await appendFile(p, values.map((v) => `${JSON.stringify(v)}\n`).join(""), "utf8");
    });
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
