/**
 * One writer path per process for SQLite. SQLite has a single write lock per file, shared by the web
 * process and every worker. Every write of a process (transactions and single mutations) goes through
 * this queue: one at a time, in order, each preceded by a yield to the event loop (better-sqlite3 is
 * synchronous, so a burst of writes would otherwise starve timers, signal handlers and sockets), and
 * retried with capped exponential backoff and jitter when another process held the lock past the busy
 * timeout ("database is locked", Prisma's "Operation has timed out") or a transaction timed out. The
 * waits between retries are asynchronous, unlike SQLite's own busy wait, which stops the event loop.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { setImmediate as nextLoopTurn } from "node:timers/promises";

export interface WriterRetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  /** Cap of one wait. */
  maxDelayMs: number;
}

/** Enough to ride out another process's writes on a busy machine (about 20 s in all) without hanging. */
export const DEFAULT_WRITER_RETRY: WriterRetryPolicy = { attempts: 8, baseDelayMs: 25, maxDelayMs: 2_000 };

export interface RetryNotice {
  label: string;
  /** The attempt that failed (1-based). */
  attempt: number;
  delayMs: number;
  error: unknown;
}

export interface WriterDeps {
  sleep(ms: number): Promise<void>;
  /** Uniform in [0, 1). */
  random(): number;
  now(): number;
  yieldToLoop(): Promise<void>;
  onRetry(n: RetryNotice): void;
}

const firstLine = (e: unknown) =>
  (e instanceof Error ? e.message : String(e))
    .split("\n")
    .filter((l) => l.trim() !== "")
    .at(-1) ?? "";

export const REAL_WRITER_DEPS: WriterDeps = {
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  random: Math.random,
  now: () => performance.now(),
  yieldToLoop: () => nextLoopTurn(),
  onRetry: (n) =>
    process.stderr.write(
      `[db] SQLite busy in ${n.label} (attempt ${n.attempt}): ${firstLine(n.error)}; retrying in ${n.delayMs} ms\n`,
    ),
};

const BUSY_TEXT = /SQLITE_BUSY|SQLITE_LOCKED|database is locked|database table is locked/i;

/**
 * True for failures that mean "someone else had the database; try again": SQLITE_BUSY/LOCKED as
 * better-sqlite3 throws them, as the adapter and Prisma wrap them (P1008 "Operation has timed out" with
 * the driver's code in `meta`), and Prisma's interactive-transaction time-outs (P2028), whose work was rolled back.
 */
export function isBusyError(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== "object" || depth > 4) return false;
  const e = err as {
    code?: unknown;
    message?: unknown;
    originalCode?: unknown;
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } };
    cause?: unknown;
  };
  if (typeof e.code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(e.code)) return true;
  if (e.code === "P2028") return true;
  // The adapter's own error (a failed COMMIT reaches us unwrapped) carries the code in `cause.originalCode`.
  const original = e.originalCode ?? e.meta?.driverAdapterError?.cause?.originalCode;
  if (typeof original === "string" && /^SQLITE_(BUSY|LOCKED)/.test(original)) return true;
  if (e.code === undefined && typeof e.message === "string" && BUSY_TEXT.test(e.message)) return true;
  return isBusyError(e.cause, depth + 1);
}

/** Counts and a window of recent latencies (queue wait included) for the shutdown summary. */
export class WriterStats {
  writes = 0;
  retries = 0;
  gaveUp = 0;
  failed = 0;
  private readonly window: number[] = [];
  private next = 0;
  private static readonly SIZE = 4096;

  record(ms: number): void {
    this.writes++;
    if (this.window.length < WriterStats.SIZE) this.window.push(ms);
    else this.window[this.next] = ms;
    this.next = (this.next + 1) % WriterStats.SIZE;
  }

  snapshot() {
    const s = [...this.window].sort((a, b) => a - b);
    const q = (p: number) => (s.length === 0 ? 0 : Math.round(s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!));
    return {
      writes: this.writes,
      retries: this.retries,
      gaveUp: this.gaveUp,
      failed: this.failed,
      p50Ms: q(0.5),
      p95Ms: q(0.95),
      maxMs: Math.round(s.at(-1) ?? 0),
    };
  }

  summary(): string {
    const s = this.snapshot();
    return `${s.writes} writes, ${s.retries} retries, ${s.gaveUp} gave up; latency p50 ${s.p50Ms} ms, p95 ${s.p95Ms} ms, max ${s.maxMs} ms`;
  }
}

export class SerialWriter {
  readonly stats = new WriterStats();
  private tail: Promise<unknown> = Promise.resolve();
  /** Set while a write runs, so a write it issues itself runs inline instead of queueing behind it. */
  private readonly holding = new AsyncLocalStorage<true>();

  constructor(
    private readonly policy: WriterRetryPolicy = DEFAULT_WRITER_RETRY,
    private readonly deps: WriterDeps = REAL_WRITER_DEPS,
  ) {}

  /** Runs `write` when every write asked for before it has finished; retries it while the database is busy. */
  run<T>(label: string, write: () => Promise<T>): Promise<T> {
    if (this.holding.getStore()) return write();
    const queuedAt = this.deps.now();
    const result = this.tail.then(() => this.holding.run(true, () => this.attempt(label, write, queuedAt)));
    this.tail = result.catch(() => {});
    return result;
  }

  private async attempt<T>(label: string, write: () => Promise<T>, queuedAt: number): Promise<T> {
    await this.deps.yieldToLoop();
    for (let attempt = 1; ; attempt++) {
      try {
        const value = await write();
        this.stats.record(this.deps.now() - queuedAt);
        return value;
      } catch (err) {
        const busy = isBusyError(err);
        if (!busy || attempt >= this.policy.attempts) {
          this.stats.failed++;
          if (busy) this.stats.gaveUp++;
          throw err;
        }
        const cap = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (attempt - 1));
        const delayMs = Math.round(cap / 2 + this.deps.random() * (cap / 2));
        this.stats.retries++;
        this.deps.onRetry({ label, attempt, delayMs, error: err });
        await this.deps.sleep(delayMs);
      }
    }
  }
}
