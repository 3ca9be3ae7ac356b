/**
 * An in-memory CheckpointStore: the store of tests and of throw-away evaluations. Values are deep-copied
 * on the way in and out, as a real store would serialise them.
 */
import type { CheckpointStore } from "./ports";
import type { Trajectory } from "./types";

const copy = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

export class MemoryCheckpointStore implements CheckpointStore {
  readonly json = new Map<string, unknown>();
  readonly text = new Map<string, string>();
  readonly rows = new Map<string, Trajectory[]>();
  readonly lines = new Map<string, unknown[]>();

  async getJson<T = unknown>(key: string): Promise<T | undefined> {
    // JSON stored as text (putText) reads back as JSON, as from a file or a database row.
    if (!this.json.has(key) && this.text.has(key)) return JSON.parse(this.text.get(key)!) as T;
    return copy(this.json.get(key)) as T | undefined;
  }
  async putJson(key: string, value: unknown): Promise<void> {
    this.text.delete(key);
    this.json.set(key, copy(value));
  }
  async getText(key: string): Promise<string | undefined> {
    return this.text.get(key);
  }
  async putText(key: string, text: string): Promise<void> {
    this.json.delete(key);
    this.text.set(key, text);
  }
  async readRows(key: string): Promise<Trajectory[]> {
    return copy(this.rows.get(key) ?? []);
  }
  async appendRows(key: string, rows: Trajectory[]): Promise<void> {
    this.rows.set(key, [...(this.rows.get(key) ?? []), ...copy(rows)]);
  }
  async appendLine(key: string, value: unknown): Promise<void> {
    this.lines.set(key, [...(this.lines.get(key) ?? []), copy(value)]);
  }
}
