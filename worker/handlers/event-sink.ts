/**
 * The engine's EventSink in the worker: each event is stored with its rows in one transaction, then a
 * wake-up notice goes out on Redis pub/sub so connected browsers read the new rows at once.
 */
import { errorLine } from "../../lib/contracts/error-line";
import { STEP_EVENT_TYPES, type EngineEvent } from "../../lib/contracts/events";
import { DbCheckpointStore, isCommitEvent } from "../../lib/db/checkpoint-store";
import type { Db } from "../../lib/db/client";
import { persistEngineEvent } from "../../lib/db/engine-events";
import { addLlmUsage } from "../../lib/db/llm-usage";
import { commitPointKey, storedCommitPoints } from "../../lib/db/resume-events";
import type { UsageFlusher } from "../../lib/runs/usage-flusher";
import { skillHash, type EventSink } from "../../lib/engine";
import type { HandlerContext } from "./context";
import type { StopCause } from "./run-lifecycle";

const STEP_EVENTS: ReadonlySet<string> = new Set(STEP_EVENT_TYPES);

export interface EventSinkOptions {
  runId: string;
  /**
   * The run's stepsDone at claim time: a resumed engine may replay the events of a step whose commit was
   * stored just before a crash; those are skipped, so no step appears twice.
   */
  committedSteps: number;
  /** Commit points already stored (`storedCommitPoints`): a replayed copy is skipped the same way. */
  storedCommits?: ReadonlySet<string>;
  ctx: HandlerContext;
  /**
   * Backend counters (calls, tokens, cost, latency, errors, retries, cache hits): flushed after every
   * stored event and before every checkpoint write (`flushUsage`), so a call whose result the checkpoint
   * keeps (and a resume will not pay again) is always counted, even after a SIGKILL.
   */
  usage?: UsageFlusher;
  /** Why the run was stopped, if it was: only the user's cancel is a cancellation. */
  stopCause?: () => StopCause | null;
  /**
   * The run's write-behind checkpoint store: before a commit point is stored, every checkpoint write
   * issued before it has landed (a failed one fails the event), so a committed step never depends on a
   * write a crash could still lose.
   */
  store?: () => { flush?(): Promise<void> };
  /** Where events are stored (default: the process's database). */
  db?: Db;
  /** The worker that owns the run: events are stored only while it does (`fenceOwner`). */
  ownerId?: string;
}

/** What is stored for an engine event, or null when it must not be stored. */
function toStored(e: EngineEvent, o: EventSinkOptions): EngineEvent | null {
  if (STEP_EVENTS.has(e.type) && "step" in e && typeof e.step === "number" && e.step <= o.committedSteps) return null;
  if (o.storedCommits?.has(commitPointKey(e.type, "epoch" in e ? e.epoch : undefined))) return null;
  // A shutdown requeues the run (logged as runQueued); a lost run belongs to another worker now.
  if (e.type === "runCancelled" && o.stopCause && o.stopCause() !== "cancel") return null;
  if (e.type === "runFailed") return { ...e, message: errorLine(e.message) };
  if (e.type === "runPaused") return { ...e, reason: errorLine(e.reason) };
  return e;
}

export function createEventSink(o: EventSinkOptions): EventSink & { flushUsage(): Promise<void> } {
  const { runId, ctx } = o;
  // One flush at a time: each takes the increments since the previous one, in order.
  let chain: Promise<void> = Promise.resolve();
  const flushUsage = (): Promise<void> => {
    if (!o.usage) return Promise.resolve();
    const usage = o.usage;
    const next = chain.then(() => addLlmUsage(runId, usage.take()));
    chain = next.catch(() => {});
    return next;
  };
  return {
    flushUsage,
    async emit(event: EngineEvent) {
      if (o.stopCause?.() === "lost") return;
      if (isCommitEvent(event.type)) await o.store?.().flush?.();
      const e = toStored(event, o);
      if (!e) return;
      const seq = await persistEngineEvent(runId, e, skillHash, o.db, { ownerId: o.ownerId });
      // Browsers are woken as soon as the event is committed, not after the usage write that follows (on
      // SQLite it may wait for the write lock); the totals it adds reach them with the next notice.
      ctx.publish(runId, seq);
      await flushUsage();
    },
  };
}

/**
 * What the worker that owns a run writes through: its event sink and its write-behind checkpoint store,
 * wired together (the sink flushes the store before each commit point; the store saves the usage before
 * each batch) and both fenced by `ctx.workerId`, so a worker that lost the run writes nothing more.
 */
export async function createOwnerWriters(
  o: Omit<EventSinkOptions, "store" | "storedCommits" | "ownerId">,
): Promise<{ sink: ReturnType<typeof createEventSink>; store: DbCheckpointStore }> {
  const ownerId = o.ctx.workerId;
  const storedCommits = await storedCommitPoints(o.runId, { db: o.db });
  const sink = createEventSink({ ...o, ownerId, storedCommits, store: () => store });
  const store = new DbCheckpointStore(o.runId, o.db, { beforeWrite: sink.flushUsage, ownsRun: true, ownerId });
  return { sink, store };
}
