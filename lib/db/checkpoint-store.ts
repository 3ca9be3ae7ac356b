/**
 * The engine's CheckpointStore on the database: one Checkpoint row per key, and CheckpointRow rows for
 * appended `.jsonl` keys. Any worker process can resume a run from these rows.
 *
 * It writes behind (issue 14: the engine must not wait on the database): a put or an append resolves at
 * once and is queued; the queue lands in issue order, each batch in one transaction (a rollout's rows of
 * one key are one createMany), after the usage hook. Reads see every write issued before them: a value
 * still queued is served from the queue, and rows wait for their key's queued appends to land. The first
 * failed write rejects every later write, read and `flush()`, and nothing queued after it lands. Whoever
 * records progress as committed (the worker's event sink at each commit point) calls `flush()` first.
 */
import { COMMIT_POINT_TYPES } from "../contracts/events";
import type { CheckpointStore } from "../engine/ports";
import type { Trajectory } from "../engine/types";
import { getDb, type Db } from "./client";
import { TX_OPTIONS } from "./engine-events";
import { fenceOwner } from "./run-owner";
import { WriteBehind } from "./write-behind";

const COMMITS: ReadonlySet<string> = new Set([...COMMIT_POINT_TYPES, "runCompleted"]);

/**
 * Events that record a run's progress as committed (a resume starts after them): every checkpoint write
 * issued before one must have landed (`flush()`) before it is stored, or a crash could lose a write the
 * committed progress depends on.
 */
export const isCommitEvent = (type: string): boolean => COMMITS.has(type);

type Write =
  { op: "put"; key: string; kind: "json" | "text"; value: string } | { op: "append"; key: string; values: string[] };

export interface CheckpointStoreHooks {
  /**
   * Runs before every batch of writes lands: the worker saves the usage of the calls made so far, which
   * include those whose results the batch keeps, so a run killed right after it still counts them (a
   * resume never pays them again).
   */
  beforeWrite?: () => Promise<void>;
  /**
   * This store is the run's only writer (the worker driving it): it lists the run's stored keys once and
   * answers a read of any other key (most memo look-ups) without asking the database.
   */
  ownsRun?: boolean;
  /**
   * The worker that owns the run: each batch lands only while the run is still this worker's running run
   * (`fenceOwner`); otherwise it fails with RunOwnershipLostError and nothing queued lands after it.
   */
  ownerId?: string;
}

type KeyIndex = { values: Set<string>; rows: Set<string> };

export class DbCheckpointStore implements CheckpointStore {
  /** Next `ord` per appended key, once known; rows of one key are appended by one owner at a time. */
  private readonly next = new Map<string, number>();
  private readonly queue = new WriteBehind<Write>((batch) => this.land(batch));
  /** With `ownsRun`: the keys stored, listed at the first read; every landed key is added. */
  private index: Promise<KeyIndex> | null = null;

  constructor(
    readonly runId: string,
    private readonly db: Db = getDb(),
    private readonly hooks: CheckpointStoreHooks = {},
  ) {}

  async getJson<T = unknown>(key: string): Promise<T | undefined> {
    const value = await this.get(key);
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }
  putJson(key: string, value: unknown): Promise<void> {
    return this.issue(() => ({ op: "put", key, kind: "json", value: JSON.stringify(value) }));
  }
  async getText(key: string): Promise<string | undefined> {
    return this.get(key);
  }
  putText(key: string, text: string): Promise<void> {
    return this.issue(() => ({ op: "put", key, kind: "text", value: text }));
  }

  async readRows(key: string): Promise<Trajectory[]> {
    this.queue.check();
    // The index first: a write that lands meanwhile is in it or still in the queue when it is checked.
    const index = await this.indexed();
    const last = this.queue
      .pending()
      .filter((p) => p.op.op === "append" && p.op.key === key)
      .at(-1);
    if (last) await this.queue.settle(last.upTo);
    if (index && !index.rows.has(key)) {
      if (!this.next.has(key)) this.next.set(key, 0);
      return [];
    }
    const rows = await this.db.checkpointRow.findMany({
      where: { runId: this.runId, key },
      orderBy: { ord: "asc" },
      select: { ord: true, value: true },
    });
    // No append of this key landed since (it would have set it): the next ord follows the last row read.
    if (!this.next.has(key)) this.next.set(key, (rows.at(-1)?.ord ?? -1) + 1);
    return rows.map((r) => JSON.parse(r.value) as Trajectory);
  }
  appendRows(key: string, rows: Trajectory[]): Promise<void> {
    return this.append(key, rows);
  }
  appendLine(key: string, value: unknown): Promise<void> {
    return this.append(key, [value]);
  }

  /** Resolves once every write issued so far has landed; rejects with the first write that failed. */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  private append(key: string, values: unknown[]): Promise<void> {
    // Serialised now: the caller may change its objects after the call returns.
    return this.issue(() =>
      values.length === 0 ? null : { op: "append", key, values: values.map((v) => JSON.stringify(v)) },
    );
  }

  /**
   * Queues a write (none for null). After a failed write, the returned promise rejects with that failure;
   * it is marked handled, because the engine keeps a rollout's write promises and awaits them only at its
   * end (an unhandled rejection would end the worker process); awaiting it still throws.
   */
  private issue(write: () => Write | null): Promise<void> {
    try {
      this.queue.check();
      const w = write();
      if (w) this.queue.push(w);
      return Promise.resolve();
    } catch (err) {
      const failed = Promise.reject(err as Error);
      failed.catch(() => {});
      return failed;
    }
  }

  private async get(key: string): Promise<string | undefined> {
    this.queue.check();
    // The index first: a write that lands meanwhile is in it or still in the queue when it is checked.
    const index = await this.indexed();
    this.queue.check();
    const queued = this.queue
      .pending()
      .filter((p) => p.op.op === "put" && p.op.key === key)
      .at(-1);
    if (queued?.op.op === "put") return queued.op.value;
    if (index && !index.values.has(key)) return undefined;
    const row = await this.db.checkpoint.findUnique({
      where: { runId_key: { runId: this.runId, key } },
      select: { value: true },
    });
    return row?.value;
  }

  /** One batch: the usage hook, then every write in one transaction (the last put of a key wins). */
  private async land(batch: readonly Write[]): Promise<void> {
    await this.hooks.beforeWrite?.();
    const puts = new Map<string, { kind: "json" | "text"; value: string }>();
    const appends = new Map<string, string[]>();
    for (const w of batch) {
      if (w.op === "put") {
        puts.delete(w.key);
        puts.set(w.key, { kind: w.kind, value: w.value });
      } else appends.set(w.key, [...(appends.get(w.key) ?? []), ...w.values]);
    }
    const firsts = new Map<string, number>();
    for (const key of appends.keys()) firsts.set(key, this.next.get(key) ?? (await this.firstFreeOrd(key)));
    await this.db.$transaction(async (tx) => {
      if (this.hooks.ownerId !== undefined) await fenceOwner(tx, this.runId, this.hooks.ownerId);
      for (const [key, { kind, value }] of puts)
        await tx.checkpoint.upsert({
          where: { runId_key: { runId: this.runId, key } },
          create: { runId: this.runId, key, kind, value },
          update: { kind, value },
        });
      for (const [key, values] of appends) {
        const first = firsts.get(key)!;
        await tx.checkpointRow.createMany({
          data: values.map((value, i) => ({ runId: this.runId, key, ord: first + i, value })),
        });
      }
    }, TX_OPTIONS);
    for (const [key, values] of appends) this.next.set(key, firsts.get(key)! + values.length);
    // Landed keys join the index before they leave the queue, so a read finds each key in one of them.
    const index = this.index && (await this.index.catch(() => null));
    for (const key of puts.keys()) index?.values.add(key);
    for (const key of appends.keys()) index?.rows.add(key);
  }

  private indexed(): Promise<KeyIndex | null> {
    if (!this.hooks.ownsRun) return Promise.resolve(null);
    if (this.index) return this.index;
    const index = (async (): Promise<KeyIndex> => {
      const [values, rows] = await Promise.all([
        this.db.checkpoint.findMany({ where: { runId: this.runId }, select: { key: true } }),
        this.db.checkpointRow.groupBy({ by: ["key"], where: { runId: this.runId } }),
      ]);
      return { values: new Set(values.map((v) => v.key)), rows: new Set(rows.map((r) => r.key)) };
    })();
    // A failed listing is tried again at the next read.
    index.catch(() => {
      if (this.index === index) this.index = null;
    });
    this.index = index;
    return index;
  }

  private async firstFreeOrd(key: string): Promise<number> {
    const a = await this.db.checkpointRow.aggregate({ where: { runId: this.runId, key }, _max: { ord: true } });
    return (a._max.ord ?? -1) + 1;
  }
}
