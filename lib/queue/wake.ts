/**
 * Wake-up notices for SSE tails in the web process: one Redis subscriber (pattern on all runs) fans out
 * to in-process listeners. Pub/sub only wakes readers; the database rows are the truth, so when Redis is
 * unreachable the tails simply poll.
 */
import { EventEmitter } from "node:events";
import { Redis } from "ioredis";
import { redisOptions } from "./connection";

const PATTERN = "skillopt:run:*";
const g = globalThis as unknown as { __skilloptWake?: { bus: EventEmitter; sub: Redis } };

function hub() {
  if (!g.__skilloptWake) {
    const bus = new EventEmitter();
    bus.setMaxListeners(0);
    const sub = new Redis({ ...redisOptions(), maxRetriesPerRequest: null, lazyConnect: false });
    sub.on("error", () => {}); // polling covers outages; ioredis reconnects by itself
    void sub.psubscribe(PATTERN).catch(() => {});
    sub.on("pmessage", (_p, channel) => bus.emit(channel.slice("skillopt:run:".length)));
    g.__skilloptWake = { bus, sub };
  }
  return g.__skilloptWake.bus;
}

/** Resolves after `ms`, or as soon as the worker commits an event of `runId`, or on abort. */
export function waitForRun(runId: string, ms: number, signal: AbortSignal): Promise<void> {
  const bus = hub();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      bus.off(runId, done);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    bus.once(runId, done);
    signal.addEventListener("abort", done, { once: true });
  });
}
