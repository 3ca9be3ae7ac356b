/**
 * Edit-budget ("learning rate") schedulers (spec §8.1). The budget is an integer number of edits, rounded
 * with Python's round-half-to-even: `Math.round` would turn the 2.5 of linear 4→2 over 8 steps into 3.
 */
import type { SchedulerKind } from "./types";

/** The budget the autonomous scheduler reports: "no limit" in practice, the model decides. */
export const AUTONOMOUS_LR = 999;

export const SCHEDULER_KINDS: readonly SchedulerKind[] = ["constant", "linear", "cosine", "autonomous"];

/**
 * Python `round(x)` to an integer, half to even, on the exact double (no epsilon: Python rounds the
 * binary value, so 2.5000000000000004 goes up and 2.5 goes down).
 */
export function pyRound(x: number): number {
  if (!Number.isFinite(x)) throw new RangeError(`cannot round ${x} to an integer`);
  const f = Math.floor(x);
  // Exact: for |x| < 2^52 the fractional part of a double is itself representable.
  const frac = x - f;
  let r: number;
  if (frac < 0.5) r = f;
  else if (frac > 0.5) r = f + 1;
  else r = f % 2 === 0 ? f : f + 1;
  // Python returns an int, which has no negative zero.
  return r === 0 ? 0 : r;
}

/** A stateful budget source; `step()` advances first, so the first budget already uses t = 1/T. */
export interface Scheduler {
  readonly kind: SchedulerKind;
  /** Advance the counter and return the budget for the new counter value. */
  step(): number;
  /** The budget at counter value `s`, without changing state. */
  peek(s: number): number;
  state(): { current_step: number };
  /** Restore a saved counter; a missing key means 0, as in the original. */
  load(state: { current_step?: number }): void;
}

export interface SchedulerOptions {
  maxLr: number;
  minLr: number;
  totalSteps: number;
}

function budgetAt(kind: SchedulerKind, opts: SchedulerOptions, s: number): number {
  const { maxLr, minLr, totalSteps: T } = opts;
  if (kind === "autonomous") return AUTONOMOUS_LR;
  if (kind === "constant" || T <= 1) return maxLr;
  const t = Math.min(s, T) / T;
  // Operation order copies the original formulas so the doubles (and therefore the .5 ties) match.
  if (kind === "linear") return Math.max(minLr, pyRound(maxLr + (minLr - maxLr) * t));
  return Math.max(minLr, pyRound(minLr + 0.5 * (maxLr - minLr) * (1 + Math.cos(Math.PI * t))));
}

function isSchedulerKind(kind: string): kind is SchedulerKind {
  return (SCHEDULER_KINDS as readonly string[]).includes(kind);
}

/**
 * Build a scheduler. A missing kind means constant (the original factory default); an unknown kind is a
 * configuration error and throws.
 */
export function createScheduler(kind: string | undefined, opts: SchedulerOptions): Scheduler {
  const resolved = kind ?? "constant";
  if (!isSchedulerKind(resolved)) {
    throw new Error(`unknown lr scheduler ${JSON.stringify(resolved)}; expected one of ${SCHEDULER_KINDS.join(", ")}`);
  }
  const frozen: SchedulerOptions = { ...opts };
  let current = 0;
  return {
    kind: resolved,
    step() {
      current += 1;
      return budgetAt(resolved, frozen, current);
    },
    peek(s: number) {
      return budgetAt(resolved, frozen, s);
    },
    state() {
      return { current_step: current };
    },
    load(state: { current_step?: number }) {
      current = state.current_step ?? 0;
    },
  };
}
