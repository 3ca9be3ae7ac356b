/**
 * Keeps `npm start`'s worker alive: a worker that exits while nobody asked it to (a crash, an OOM kill, a
 * stray `kill`) is started again after a backoff that doubles with each quick death (1 s, 2 s, 4 s … at
 * most 30 s) and resets once a worker has stayed up for a minute. Each death and restart is one log line;
 * the dashboard keeps serving throughout. The process, timers and clock are injected so tests drive it.
 */
import type { ChildProcess } from "node:child_process";

export interface SuperviseOptions {
  /** Starts one worker process. */
  spawn: () => ChildProcess;
  say: (line: string) => void;
  /** Called with every new child (the caller's Ctrl-C handling needs the live one). */
  onStart?: (child: ChildProcess) => void;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** A worker that ran at least this long counts as healthy: the next death restarts after firstDelayMs. */
  healthyAfterMs?: number;
}

export interface Supervisor {
  /** The live worker, or null while waiting to restart. */
  current(): ChildProcess | null;
  restarts(): number;
  /** No more restarts (Ctrl-C): the caller stops the live child itself. */
  stop(): void;
}

/** The wait before restart number `attempt` (1-based) of a worker that keeps dying quickly. */
export function backoffMs(attempt: number, firstMs = 1_000, maxMs = 30_000): number {
  return Math.min(maxMs, firstMs * 2 ** Math.max(0, attempt - 1));
}

export function superviseWorker(o: SuperviseOptions): Supervisor {
  const now = o.now ?? Date.now;
  const setTimer = o.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = o.clearTimer ?? ((h) => clearTimeout(h as NodeJS.Timeout));
  const first = o.firstDelayMs ?? 1_000;
  const max = o.maxDelayMs ?? 30_000;
  const healthy = o.healthyAfterMs ?? 60_000;
  let child: ChildProcess | null = null;
  let stopped = false;
  let timer: unknown = null;
  let quickDeaths = 0;
  let total = 0;

  const start = () => {
    timer = null;
    if (stopped) return;
    const startedAt = now();
    const c = o.spawn();
    child = c;
    o.onStart?.(c);
    c.once("exit", (code, signal) => {
      if (child === c) child = null;
      if (stopped) return;
      quickDeaths = now() - startedAt >= healthy ? 1 : quickDeaths + 1;
      total += 1;
      const wait = backoffMs(quickDeaths, first, max);
      const how = signal ? `signal ${signal}` : `code ${code}`;
      o.say(
        `worker exited (${how}) while the dashboard runs; restarting it in ${formatWait(wait)} (restart ${total}; runs it held resume from their last step)`,
      );
      timer = setTimer(start, wait);
    });
  };
  start();
  return {
    current: () => child,
    restarts: () => total,
    stop: () => {
      stopped = true;
      if (timer !== null) clearTimer(timer);
      timer = null;
    },
  };
}

const formatWait = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);
