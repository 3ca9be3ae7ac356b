/**
 * A counting semaphore bounding the requests in flight to one provider endpoint. One limiter exists per
 * backend and base URL in a process, so two runs (or both roles of one run) talking to the same server
 * share it; the size is the latest configured `model.max_concurrency`.
 */

export class Limiter {
  private active = 0;
  private readonly queue: Array<() => void> = [];
  /** Called once each when a slot is free and nobody waits for one (hedges waiting for spare capacity). */
  private spare: Array<{ fn: () => void; live: boolean }> = [];

  constructor(private limit: number) {}

  get inFlight(): number {
    return this.active;
  }

  get waiting(): number {
    return this.queue.length;
  }

  get size(): number {
    return this.limit;
  }

  /** Changes the size; a larger one admits waiters at once, a smaller one takes effect as slots free up. */
  setLimit(limit: number): void {
    this.limit = Math.max(1, Math.floor(limit));
    this.drain();
  }

  /** Waits for a slot; resolves with its release function. Rejects with the signal's reason if it fires first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        this.active++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.active--;
          this.drain();
        });
      };
      const onAbort = () => {
        const i = this.queue.indexOf(grant);
        if (i >= 0) this.queue.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(grant);
      this.drain();
    });
  }

  /** A slot now, or null when none is free or others are waiting (never jumps the queue). */
  tryAcquire(): (() => void) | null {
    if (this.active >= this.limit || this.queue.length > 0) return null;
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.drain();
    };
  }

  /**
   * Calls `fn` once, the next time a slot is free that no queued caller wants (it then takes it with
   * `tryAcquire`, or may register again: then it is called at the next free slot, not in a loop now).
   * Spare-slot listeners never delay queued callers. Returns a function that cancels it.
   */
  onSpare(fn: () => void): () => void {
    const entry = { fn, live: true };
    this.spare.push(entry);
    return () => {
      entry.live = false;
      this.spare = this.spare.filter((e) => e !== entry);
    };
  }

  /** Runs `fn` inside a slot. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private drain(): void {
    while (this.active < this.limit && this.queue.length > 0) this.queue.shift()!();
    if (this.spare.length === 0) return;
    // Listeners registered while these run wait for the next free slot (one may register again).
    const ready = this.spare;
    this.spare = [];
    let i = 0;
    while (i < ready.length && this.active < this.limit && this.queue.length === 0) {
      const e = ready[i++]!;
      if (!e.live) continue;
      e.live = false;
      e.fn();
    }
    this.spare = [...ready.slice(i).filter((e) => e.live), ...this.spare];
  }
}

const LIMITERS = new Map<string, Limiter>();

/** The process-wide limiter of one endpoint (`backend` + base URL), created or resized to `size`. */
export function sharedLimiter(backend: string, baseURL: string, size: number): Limiter {
  const key = `${backend} ${baseURL.replace(/\/+$/, "")}`;
  const found = LIMITERS.get(key);
  if (found) {
    found.setLimit(size);
    return found;
  }
  const made = new Limiter(Math.max(1, Math.floor(size)));
  LIMITERS.set(key, made);
  return made;
}
