/**
 * Tail-tolerant calls (opt-in `model.hedge: true`). Every answered attempt's latency is kept per endpoint
 * and stage; once a stage has `hedge_min_samples` of them, an attempt still running after the stage's
 * `hedge_percentile` latency gets a second, identical request — in a slot of the endpoint's concurrency
 * limiter that no queued call wants: at once when one is free, else as soon as one frees up with nobody
 * waiting (the tail of a phase, when the straggler is what every caller waits for). A hedge never delays a
 * queued call, and it is never dropped for want of a slot at the moment its delay passed. The first answer
 * wins and the other request is aborted. Both are billed (the caller records the extra one under `<stage>_hedge`).
 *
 * Answers must not depend on which request won: the request is identical and the engine's decisions read
 * only the answer text, so a deterministic model gives byte-identical decisions with or without hedging.
 */
/** Latencies of the last `capacity` answered attempts of one stage (a ring buffer). */
class Window {
  private readonly xs: number[] = [];
  private next = 0;
  constructor(private readonly capacity: number) {}

  add(ms: number): void {
    if (this.xs.length < this.capacity) this.xs.push(ms);
    else this.xs[this.next] = ms;
    this.next = (this.next + 1) % this.capacity;
  }

  get size(): number {
    return this.xs.length;
  }

  /** The q-quantile (nearest rank) of the window. */
  quantile(q: number): number {
    const sorted = [...this.xs].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  }
}

/**
 * Observed latencies per stage of one endpoint (the hedge delay is a percentile of them), and how many
 * first requests are in flight on it (a phase's last calls and lone calls are hedged earlier).
 */
export class LatencyTracker {
  private readonly stages = new Map<string, Window>();
  private readonly all: Window;
  private running = 0;
  constructor(private readonly capacity = 256) {
    this.all = new Window(capacity);
  }

  observe(stage: string, ms: number): void {
    let w = this.stages.get(stage);
    if (!w) this.stages.set(stage, (w = new Window(this.capacity)));
    w.add(ms);
    this.all.add(ms);
  }

  /** First requests (not hedges) in flight on the endpoint. */
  get inFlight(): number {
    return this.running;
  }

  /** Counts one first request in flight until the returned function is called (once). */
  begin(): () => void {
    this.running++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.running--;
    };
  }

  /** The stage's `percentile` latency, or null while fewer than `minSamples` were observed. */
  delayFor(stage: string, percentile: number, minSamples: number): number | null {
    const w = this.stages.get(stage);
    if (!w || w.size < Math.max(1, minSamples)) return null;
    return w.quantile(percentile);
  }

  /**
   * Like `delayFor`, but while the stage has fewer than `minSamples` answers, the percentile over all the
   * endpoint's stages: a stage of rare single calls (merge, rewrite) would otherwise never learn one.
   */
  tailDelayFor(stage: string, percentile: number, minSamples: number): number | null {
    const own = this.delayFor(stage, percentile, minSamples);
    if (own !== null || this.all.size < Math.max(1, minSamples)) return own;
    return this.all.quantile(percentile);
  }
}

const TRACKERS = new Map<string, LatencyTracker>();

/** The process-wide tracker of one endpoint (`backend` + base URL): every run using it learns from all calls. */
export function sharedTracker(backend: string, baseURL: string): LatencyTracker {
  const key = `${backend} ${baseURL.replace(/\/+$/, "")}`;
  let t = TRACKERS.get(key);
  if (!t) TRACKERS.set(key, (t = new LatencyTracker()));
  return t;
}

export interface HedgeTimer {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const REAL_TIMER: HedgeTimer = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface HedgeOutcome<T> {
  answer: T;
  /** A second request was sent. */
  hedged: boolean;
  /** The second request answered first (the first was aborted). */
  hedgeWon: boolean;
}

/**
 * Sends `send` once, and once more after `delayMs` if it has not answered and `trySlot` grants a slot —
 * or, when none is free then, once `whenSlotFree` reports one (and `trySlot` then grants it). With `tail`,
 * the second request goes earlier, after `tail.delayMs`, if `tail.isTail()` holds then or at a later spare
 * slot (checked each time one frees). The first answer wins and the other request's signal is aborted. An
 * error ends the call at once when no other request is running; otherwise the other request's outcome
 * decides (both failing: the first request's error). `signal` (run cancellation and timeout) aborts both.
 */
export function hedgedSend<T>(o: {
  send: (signal: AbortSignal) => Promise<T>;
  signal: AbortSignal;
  delayMs: number | null;
  /** An earlier delay that applies while `isTail()` holds (the endpoint's last few calls, nothing queued). */
  tail?: { delayMs: number; isTail: () => boolean };
  trySlot: () => (() => void) | null;
  /** Calls its argument once when a slot may be free; returns a cancel function. Without it: no slot, no hedge. */
  whenSlotFree?: (fn: () => void) => () => void;
  timer?: HedgeTimer;
}): Promise<HedgeOutcome<T>> {
  const timer = o.timer ?? REAL_TIMER;
  const ctl = [new AbortController(), new AbortController()] as const;
  const running = [true, false];
  const errors: unknown[] = [undefined, undefined];
  let hedged = false;
  let settled = false;
  let handle: unknown = null;
  let stopWaiting: (() => void) | null = null;
  const stop = () => {
    if (handle !== null) timer.clear(handle);
    handle = null;
    stopWaiting?.();
    stopWaiting = null;
  };
  const waitForSlot = (fn: () => void) => {
    stopWaiting?.();
    stopWaiting = o.whenSlotFree
      ? o.whenSlotFree(() => {
          stopWaiting = null;
          fn();
        })
      : null;
  };

  return new Promise<HedgeOutcome<T>>((resolve, reject) => {
    const finish = (i: 0 | 1, answer: T) => {
      running[i] = false;
      if (settled) return;
      settled = true;
      stop();
      ctl[1 - i]!.abort(new Error("hedged call: the other request answered first"));
      resolve({ answer, hedged, hedgeWon: i === 1 });
    };
    const fail = (i: 0 | 1, err: unknown) => {
      running[i] = false;
      errors[i] = err;
      if (settled || running[1 - i]) return;
      settled = true;
      stop();
      reject(errors[0] ?? err);
    };
    o.send(AbortSignal.any([o.signal, ctl[0].signal])).then(
      (a) => finish(0, a),
      (e: unknown) => fail(0, e),
    );
    const hedge = () => {
      if (settled || hedged || o.signal.aborted) return;
      const release = o.trySlot();
      // The endpoint is busy: a hedge would only queue behind real work. It goes once a slot is spare.
      if (!release) return waitForSlot(hedge);
      stop();
      hedged = true;
      running[1] = true;
      o.send(AbortSignal.any([o.signal, ctl[1].signal]))
        .then(
          (a) => finish(1, a),
          (e: unknown) => fail(1, e),
        )
        .finally(release);
    };
    const tail = o.tail && (o.delayMs === null || o.tail.delayMs < o.delayMs) ? o.tail : null;
    // Past the tail delay: hedge as soon as the call is among the endpoint's last ones (re-checked at each spare slot).
    const watchTail = () => {
      if (settled || hedged || o.signal.aborted) return;
      if (tail!.isTail()) hedge();
      else waitForSlot(watchTail);
    };
    const afterDelay = () => {
      handle = null;
      hedge();
    };
    if (tail) {
      handle = timer.set(() => {
        handle = null;
        if (o.delayMs !== null) handle = timer.set(afterDelay, o.delayMs - tail.delayMs);
        watchTail();
      }, tail.delayMs);
    } else if (o.delayMs !== null) handle = timer.set(afterDelay, o.delayMs);
  });
}
