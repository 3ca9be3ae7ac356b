/**
 * Exec slots of one worker process (`worker.exec_slots`): every chunk of a run that this process holds
 * runs its items through the run's slots, so a prefetched chunk waits for a free slot instead of running
 * more items at once than the run allows.
 */
export class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(readonly size: number) {}

  get idle(): boolean {
    return this.active === 0 && this.waiting.length === 0;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter; otherwise it is free again.
      if (next) next();
      else this.active -= 1;
    }
  }
}

const byRun = new Map<string, Slots>();

/** The process's slots for a run (a new set when the run's `exec_slots` changed). */
export function slotsFor(runId: string, size: number): Slots {
  const key = `${runId}:${size}`;
  let s = byRun.get(key);
  if (!s) {
    for (const [k, v] of byRun) if (v.idle) byRun.delete(k); // forget runs with nothing in flight
    s = new Slots(size);
    byRun.set(key, s);
  }
  return s;
}
