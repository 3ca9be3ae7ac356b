/**
 * A run's spending limit (`budget.max_usd`, `budget.max_calls`), shared by both roles. Every call
 * reserves its worst case (estimated prompt + all of its max tokens) before it starts and settles with
 * the actual cost when it ends, so concurrent calls cannot overspend together. When a reservation does
 * not fit but other calls are in flight, it waits for them to settle (their unused reservation comes
 * back); when it still does not fit, the call is refused with an error that pauses the run — resumable
 * with a larger budget — instead of spending past the limit.
 */

export interface BudgetLimits {
  max_usd: number | null;
  max_calls: number | null;
}

export interface Spent {
  usd: number;
  calls: number;
}

/** Thrown when a call does not fit the budget. `stopRun: "pause"` makes the engine pause the run. */
export class BudgetExhaustedError extends Error {
  readonly stopRun = "pause" as const;
  readonly kind = "budget" as const;

  constructor(message: string) {
    super(message);
    this.name = "BudgetExhaustedError";
  }
}

export interface Reservation {
  readonly usd: number;
  done: boolean;
}

const usd = (v: number) => `$${v.toFixed(2)}`;

/** What the policy client needs of a budget: this process's `Budget`, or a fanned-out run's `SharedBudget`. */
export interface RunBudget {
  readonly limits: BudgetLimits;
  reserve(estimateUsd: number | null, signal?: AbortSignal): Promise<Reservation>;
  settle(r: Reservation, actualUsd: number | null): void;
  release(r: Reservation): void;
  snapshot(): { spentUsd: number; calls: number; reservedUsd: number; inFlight: number };
}

/** Why one more call costing at most `est` does not fit, or null when it does. */
export function refusalOf(
  limits: BudgetLimits,
  spent: Spent,
  reservedCalls: number,
  reservedUsd: number,
  est: number,
): string | null {
  const { max_usd, max_calls } = limits;
  if (max_calls !== null && spent.calls + reservedCalls + 1 > max_calls) {
    return `budget exhausted: ${spent.calls} of ${max_calls} calls`;
  }
  if (max_usd !== null && spent.usd + reservedUsd + est > max_usd + 1e-12) {
    const next = spent.usd < max_usd ? ` (the next call may cost up to ${usd(est)})` : "";
    return `budget exhausted: ${usd(spent.usd)} of ${usd(max_usd)} spent${next}`;
  }
  return null;
}

export class Budget implements RunBudget {
  private spentUsd: number;
  private calls: number;
  private reservedUsd = 0;
  private reservedCalls = 0;
  private waiters: Array<() => void> = [];

  /** `spent` carries over what earlier sessions of the same run already used (resume). */
  constructor(
    readonly limits: BudgetLimits,
    spent: Spent = { usd: 0, calls: 0 },
  ) {
    this.spentUsd = spent.usd;
    this.calls = spent.calls;
  }

  /** Spent and reserved amounts, for stats and messages. */
  snapshot(): { spentUsd: number; calls: number; reservedUsd: number; inFlight: number } {
    return { spentUsd: this.spentUsd, calls: this.calls, reservedUsd: this.reservedUsd, inFlight: this.reservedCalls };
  }

  /**
   * Reserves one call costing at most `estimateUsd` (null: price unknown, counted as 0 — the registry
   * refuses a USD limit for a model without a price). Waits while in-flight calls may free enough.
   */
  async reserve(estimateUsd: number | null, signal?: AbortSignal): Promise<Reservation> {
    const est = estimateUsd ?? 0;
    for (;;) {
      signal?.throwIfAborted();
      const refusal = this.refusal(est);
      if (refusal === null) {
        this.reservedUsd += est;
        this.reservedCalls++;
        return { usd: est, done: false };
      }
      if (this.reservedCalls === 0) throw new BudgetExhaustedError(refusal);
      await this.nextSettle(signal);
    }
  }

  /** Ends a reservation with the call's actual cost (null when unknown: the reservation is kept as spent). */
  settle(r: Reservation, actualUsd: number | null): void {
    if (r.done) return;
    r.done = true;
    this.reservedUsd -= r.usd;
    this.reservedCalls--;
    this.spentUsd += actualUsd ?? r.usd;
    this.calls++;
    this.wake();
  }

  /** Ends a reservation of a call that never reached the provider: nothing is spent or counted. */
  release(r: Reservation): void {
    if (r.done) return;
    r.done = true;
    this.reservedUsd -= r.usd;
    this.reservedCalls--;
    this.wake();
  }

  private refusal(est: number): string | null {
    return refusalOf(this.limits, { usd: this.spentUsd, calls: this.calls }, this.reservedCalls, this.reservedUsd, est);
  }

  private nextSettle(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        reject(signal!.reason);
      };
      const wake = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(wake);
    });
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }
}
