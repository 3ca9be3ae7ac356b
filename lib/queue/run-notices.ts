/**
 * Wake-up notices for SSE tails in the web process: one Redis subscriber (pattern on all runs) fans out
 * to in-process listeners. Pub/sub only wakes readers; the database rows are the truth, so when Redis is
 * unreachable the tails simply poll.
 *
 * Each tail holds one subscription for its whole life (a latch), not one per wait: a notice that arrives
 * while the tail is reading rows is remembered, and the next wait returns at once. A listener added only
 * at each wait lost such notices, and the tail then slept a whole poll interval with rows waiting.
 */
import { EventEmitter } from "node:events";
import { Redis } from "ioredis";
import { redisOptions } from "./connection";

const PREFIX = "skillopt:run:";
const g = globalThis as unknown as { __skilloptWake?: { bus: EventEmitter; ready: Promise<void> } };

function hub() {
  if (!g.__skilloptWake) {
    const bus = new EventEmitter();
    bus.setMaxListeners(0);
    const sub = new Redis({ ...redisOptions(), maxRetriesPerRequest: null, lazyConnect: false });
    sub.on("error", () => {}); // polling covers outages; ioredis reconnects by itself
    const ready = sub.psubscribe(`${PREFIX}*`).then(
      () => undefined,
      () => undefined,
    );
    sub.on("pmessage", (_p, channel) => bus.emit(channel.slice(PREFIX.length)));
    g.__skilloptWake = { bus, ready };
  }
  return g.__skilloptWake;
}

/** Where a latch listens: `on` registers the listener and returns how to remove it. */
export type NoticeSource = (listener: () => void) => () => void;

export interface RunNotices {
  /** Resolves after `ms`, at once if a notice came since the last wait, as soon as one comes, or on abort. */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  close(): void;
}

/** A latch over a notice source: notices between two waits are kept (as one), never lost. */
export function noticeLatch(source: NoticeSource): RunNotices {
  let pending = false;
  let wake: (() => void) | null = null;
  const off = source(() => {
    if (wake) wake();
    else pending = true;
  });
  return {
    wait(ms, signal) {
      if (pending || signal.aborted) {
        pending = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          wake = null;
          resolve();
        };
        const timer = setTimeout(done, ms);
        wake = done;
        signal.addEventListener("abort", done, { once: true });
      });
    },
    close() {
      off();
      if (wake) wake();
    },
  };
}

/**
 * Subscribes to the worker's commit notices of `runId` (`runChannel`), waiting at most `readyMs` for the
 * process's Redis subscription to be confirmed, so notices right after the first read are not missed.
 */
export async function watchRunNotices(runId: string, readyMs = 500): Promise<RunNotices> {
  const { bus, ready } = hub();
  const latch = noticeLatch((listener) => {
    bus.on(runId, listener);
    return () => bus.off(runId, listener);
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([ready, new Promise((r) => (timer = setTimeout(r, readyMs)))]);
  clearTimeout(timer);
  return latch;
}
