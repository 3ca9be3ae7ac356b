/**
 * Writes that resolve before they land. `push` queues a write and returns at once; the writes land in the
 * order they were issued, in batches (everything queued while one batch lands goes into the next one, so a
 * burst of small writes becomes a few large ones). `settle` and `flush` wait until the writes issued so far
 * have landed. The first failure is kept: it rejects every later push, settle and flush, and nothing queued
 * after the failed batch lands (a later write can never land without an earlier one).
 */
import { setImmediate as nextLoopTurn } from "node:timers/promises";

interface Waiter {
  upTo: number;
  resolve(): void;
  reject(err: unknown): void;
}

export class WriteBehind<Op> {
  private queued: Op[] = [];
  /** The batch being landed now (kept until it has landed, so readers still see it). */
  private landing: Op[] = [];
  private issued = 0;
  private landed = 0;
  private failure: { error: unknown } | null = null;
  private running = false;
  private waiters: Waiter[] = [];

  /** `land` writes one batch, in order, all or nothing (a transaction). */
  constructor(private readonly land: (batch: readonly Op[]) => Promise<void>) {}

  /** Throws the first failure, if a write failed. */
  check(): void {
    if (this.failure) throw this.failure.error;
  }

  /** Queues `op`; throws the first failure instead when a write failed. */
  push(op: Op): void {
    this.check();
    this.queued.push(op);
    this.issued += 1;
    if (!this.running) void this.drain();
  }

  /** The writes not landed yet, oldest first, each with the count `settle` takes to wait for it. */
  pending(): Array<{ op: Op; upTo: number }> {
    return [...this.landing, ...this.queued].map((op, i) => ({ op, upTo: this.landed + i + 1 }));
  }

  /** Resolves once the first `upTo` writes ever issued have landed; rejects with the first failure. */
  settle(upTo: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.landed >= upTo) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ upTo, resolve, reject }));
  }

  /** Resolves once every write issued so far has landed; rejects with the first failure. */
  flush(): Promise<void> {
    return this.settle(this.issued);
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queued.length > 0 && !this.failure) {
        // The writes issued in this turn of the event loop join the batch.
        await nextLoopTurn();
        this.landing = this.queued;
        this.queued = [];
        try {
          await this.land(this.landing);
          this.landed += this.landing.length;
          this.landing = [];
          this.wake();
        } catch (error) {
          this.fail(error);
        }
      }
    } finally {
      this.running = false;
    }
  }

  private wake(): void {
    const due = this.waiters.filter((w) => w.upTo <= this.landed);
    this.waiters = this.waiters.filter((w) => w.upTo > this.landed);
    for (const w of due) w.resolve();
  }

  private fail(error: unknown): void {
    this.failure = { error };
    this.landing = [];
    this.queued = [];
    const all = this.waiters;
    this.waiters = [];
    for (const w of all) w.reject(error);
  }
}
