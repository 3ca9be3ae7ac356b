/**
 * Fan-out results (`worker.fan_out`): one row per run, rollout folder and item, written by the child job
 * that ran the item on any worker. The primary key makes a second store of an item impossible: the first
 * stored trajectory is the item's result, whichever worker produced it.
 */
import type { Trajectory } from "../engine/types";
import { getDb, providerOfDb, type Db } from "./client";
import { addLlmUsage, addLlmUsageIn, lockRunUsage, USAGE_TX_OPTIONS, type UsageDelta } from "./llm-usage";

const isUniqueViolation = (err: unknown): boolean => (err as { code?: string } | null)?.code === "P2002";

/**
 * Stores an item's trajectory and, in the same transaction, the usage of the calls that produced it (so
 * they count exactly when the row is stored: a chunk run again skips the item and its calls). False when
 * the item was already stored (the stored row stays); the calls of this second run of it were still
 * made (the shared budget counted them), so its usage is added on its own.
 */
export async function createFanOutResult(opts: {
  runId: string;
  key: string;
  row: Trajectory;
  workerId: string;
  usage?: UsageDelta[];
  db?: Db;
}): Promise<boolean> {
  const db = opts.db ?? getDb();
  const data = {
    runId: opts.runId,
    key: opts.key,
    itemId: opts.row.id,
    value: JSON.stringify(opts.row),
    workerId: opts.workerId,
  };
  const usage = opts.usage ?? [];
  try {
    if (usage.length === 0) await db.fanOutResult.create({ data });
    else {
      const provider = providerOfDb(db);
      await db.$transaction(async (tx) => {
        await lockRunUsage(tx, provider, opts.runId);
        await tx.fanOutResult.create({ data });
        await addLlmUsageIn(tx, provider, opts.runId, usage);
      }, USAGE_TX_OPTIONS);
    }
    return true;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    await addLlmUsage(opts.runId, usage, db);
    return false;
  }
}

/** Ids of the stored items of a rollout folder, among `itemIds` when given. */
export async function listFanOutItemIds(opts: {
  runId: string;
  key: string;
  itemIds?: readonly string[];
  db?: Db;
}): Promise<Set<string>> {
  const db = opts.db ?? getDb();
  const rows = await db.fanOutResult.findMany({
    where: { runId: opts.runId, key: opts.key, ...(opts.itemIds ? { itemId: { in: [...opts.itemIds] } } : {}) },
    select: { itemId: true },
  });
  return new Set(rows.map((r) => r.itemId));
}

/** Stored trajectories of a rollout folder by item id (the ones among `itemIds` when given). */
export async function listFanOutResults(opts: {
  runId: string;
  key: string;
  itemIds?: readonly string[];
  db?: Db;
}): Promise<Map<string, Trajectory>> {
  const db = opts.db ?? getDb();
  const rows = await db.fanOutResult.findMany({
    where: { runId: opts.runId, key: opts.key, ...(opts.itemIds ? { itemId: { in: [...opts.itemIds] } } : {}) },
    select: { itemId: true, value: true },
  });
  return new Map(rows.map((r) => [r.itemId, JSON.parse(r.value) as Trajectory]));
}
