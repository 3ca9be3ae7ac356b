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
export { LatencyTracker, sharedTracker } from "./hedge-tracker";

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
 * or, when none is free then, once `whenSlotFree` reports one (and `trySlot` then grants it). Each of the
 * `tiers` (shorter delays) sends the second request earlier, after its `delayMs`, if its `isTail()` holds
 * then or at a later spare slot (checked each time one frees, against every tier whose delay has passed).
 * The first answer wins and the other request's signal is aborted. An error ends the call at once when no
 * other request is running; otherwise the other request's outcome decides (both failing: the first
 * request's error). `signal` (run cancellation and timeout) aborts both.
 */
export function hedgedSend<T>(o: {
  send: (signal: AbortSignal) => Promise<T>;
  signal: AbortSignal;
  delayMs: number | null;
  /** Earlier delays, each applying while its `isTail()` holds (e.g. few calls in flight, nothing queued). */
  tiers?: ReadonlyArray<{ delayMs: number; isTail: () => boolean }>;
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
    // Tiers not shorter than the main delay never apply; the rest in the order their delays pass.
    const tiers = (o.tiers ?? [])
      .filter((t) => o.delayMs === null || t.delayMs < o.delayMs)
      .sort((a, b) => a.delayMs - b.delayMs);
    let passed = 0;
    // Past a tier's delay: hedge as soon as one passed tier holds (re-checked at each spare slot).
    const watchTiers = () => {
      if (settled || hedged || o.signal.aborted) return;
      if (tiers.slice(0, passed).some((t) => t.isTail())) hedge();
      else waitForSlot(watchTiers);
    };
    const armNext = (elapsed: number) => {
      const tier = tiers[passed];
      if (tier) {
        handle = timer.set(() => {
          handle = null;
          passed++;
          armNext(tier.delayMs);
          watchTiers();
        }, tier.delayMs - elapsed);
      } else if (o.delayMs !== null) {
        handle = timer.set(() => {
          handle = null;
          hedge();
        }, o.delayMs - elapsed);
      }
    };
    armNext(0);
  });
}
