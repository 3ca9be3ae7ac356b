/**
 * The engine's CheckpointStore on the database: one Checkpoint row per key, and CheckpointRow rows for
 * appended `.jsonl` keys. Any worker process can resume a run from these rows.
 */
import type { CheckpointStore } from "../engine/ports";
import type { Trajectory } from "../engine/types";
import { getDb, type Db } from "./client";

export class DbCheckpointStore implements CheckpointStore {
  /** Next `ord` per appended key; rows of one key are appended by one owner at a time. */
  private readonly next = new Map<string, Promise<number>>();

  constructor(
    readonly runId: string,
    private readonly db: Db = getDb(),
    /**
     * Runs before every write: the worker saves the usage of the calls whose results are about to be
     * kept, so a run killed right after the write still counts them (a resume never pays them again).
     */
    private readonly hooks: { beforeWrite?: () => Promise<void> } = {},
  ) {}

  private async get(key: string): Promise<{ kind: string; value: string } | null> {
    return this.db.checkpoint.findUnique({
      where: { runId_key: { runId: this.runId, key } },
      select: { kind: true, value: true },
    });
  }

  private async put(key: string, kind: "json" | "text", value: string): Promise<void> {
    await this.hooks.beforeWrite?.();
    await this.db.checkpoint.upsert({
      where: { runId_key: { runId: this.runId, key } },
      create: { runId: this.runId, key, kind, value },
      update: { kind, value },
    });
  }

  async getJson<T = unknown>(key: string): Promise<T | undefined> {
    const row = await this.get(key);
    return row ? (JSON.parse(row.value) as T) : undefined;
  }
  async putJson(key: string, value: unknown): Promise<void> {
    await this.put(key, "json", JSON.stringify(value));
  }
  async getText(key: string): Promise<string | undefined> {
    return (await this.get(key))?.value;
  }
  async putText(key: string, text: string): Promise<void> {
    await this.put(key, "text", text);
  }

  async readRows(key: string): Promise<Trajectory[]> {
    const rows = await this.db.checkpointRow.findMany({
      where: { runId: this.runId, key },
      orderBy: { ord: "asc" },
      select: { value: true },
    });
    return rows.map((r) => JSON.parse(r.value) as Trajectory);
  }
  async appendRows(key: string, rows: Trajectory[]): Promise<void> {
    await this.append(key, rows);
  }
  async appendLine(key: string, value: unknown): Promise<void> {
    await this.append(key, [value]);
  }

  private async append(key: string, values: unknown[]): Promise<void> {
    if (values.length === 0) return;
    await this.hooks.beforeWrite?.();
    // Reserve ords synchronously through a promise chain, so concurrent appends never collide.
    const prev =
      this.next.get(key) ??
      this.db.checkpointRow
        .aggregate({ where: { runId: this.runId, key }, _max: { ord: true } })
        .then((a) => (a._max.ord ?? -1) + 1);
    const start = prev;
    this.next.set(
      key,
      start.then((n) => n + values.length),
    );
    const first = await start;
    await this.db.checkpointRow.createMany({
      data: values.map((v, i) => ({ runId: this.runId, key, ord: first + i, value: JSON.stringify(v) })),
    });
  }
}
