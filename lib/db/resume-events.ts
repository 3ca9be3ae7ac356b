/**
 * The event log across attempts of one run. A resumed engine replays the work after its last saved state
 * from memos (no call is paid twice) and emits those events again; the earlier attempt's copies are marked
 * superseded (hidden from the log and the stream, kept in the table), so every step appears once while the
 * stream's cursor stays monotonic.
 */
import { COMMIT_POINT_TYPES, STEP_EVENT_TYPES } from "../contracts/events";
import { parseStoredEvent } from "../contracts/stored-events";
import { getDb, type Db } from "./client";
import { appendRunEventTx, TX_OPTIONS } from "./engine-events";

/** Events a resumed attempt emits again when they came after the last commit point. */
const REPLAYED: readonly string[] = [...STEP_EVENT_TYPES, "testScored"];
/** Commit-point events that carry the epoch they belong to. */
const PER_EPOCH: readonly string[] = ["slowUpdateApplied", "metaSkillUpdated", "epochCompleted"];

/**
 * Records that a worker picked the run up again from step `fromStep`: marks the earlier attempt's
 * uncommitted events superseded and appends `runResumed` naming them, in one transaction.
 */
export async function recordResume(
  runId: string,
  fromStep: number,
  { db = getDb() }: { db?: Db } = {},
): Promise<number> {
  return db.$transaction(async (tx) => {
    const last = await tx.runEvent.findFirst({
      where: { runId, type: { in: [...COMMIT_POINT_TYPES] }, superseded: false },
      orderBy: { seq: "desc" },
      select: { seq: true },
    });
    const stale = await tx.runEvent.findMany({
      where: { runId, seq: { gt: last?.seq ?? 0 }, type: { in: [...REPLAYED] }, superseded: false },
      select: { seq: true },
      orderBy: { seq: "asc" },
    });
    const seqs = stale.map((e) => e.seq);
    if (seqs.length > 0)
      await tx.runEvent.updateMany({ where: { runId, seq: { in: seqs } }, data: { superseded: true } });
    return appendRunEventTx(tx, runId, { type: "runResumed", fromStep, superseded: seqs });
  }, TX_OPTIONS);
}

/** Key of a commit-point event for `storedCommitPoints`: its type, plus its epoch for per-epoch ones. */
export function commitPointKey(type: string, epoch?: unknown): string {
  return PER_EPOCH.includes(type) ? `${type}:${String(epoch)}` : type;
}

/**
 * Commit-point events already stored (other than step commits, which the sink checks by step): an engine
 * that crashed between storing one and saving its state emits it again on resume, and that copy is dropped.
 */
export async function storedCommitPoints(runId: string, { db = getDb() }: { db?: Db } = {}): Promise<Set<string>> {
  const rows = await db.runEvent.findMany({
    where: { runId, type: { in: ["baselineScored", ...PER_EPOCH] }, superseded: false },
    select: { seq: true, type: true, payload: true },
  });
  return new Set(
    rows.map((r) => {
      const e = parseStoredEvent(r);
      return commitPointKey(e.type, "epoch" in e ? e.epoch : undefined);
    }),
  );
}
