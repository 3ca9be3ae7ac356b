/**
 * Early gate decision (opt-in `evaluation.early_decision: true`, hard gate metric): while a candidate is
 * scored on the selection split, stop as soon as no outcome of the items still to score — any score in
 * [0, 1], or no answer at all — can make the gate do anything but reject. Only a reject can be decided
 * early: an accepted candidate's full score becomes the current score later steps compare with.
 *
 * The test mirrors the step gate exactly (lib/engine/step-gate.ts, compareOnSelection and decideGate):
 *  - a skip (`skip_errors`) must be impossible: even with every remaining item unanswered, at most
 *    `max_error_share` of the items are unpaired and at least one item is paired;
 *  - over the items both skills answered, the candidate's sum can at most gain 1 − b on each remaining
 *    item the incumbent answered (b its score there), which must still not beat the incumbent's sum;
 *  - when every item may end up answered on both sides, the gate compares the candidate's plain mean with
 *    the incumbent's stored score instead, so that case is bounded too.
 * Sums of 0/1 scores are exact; with fractional scores a margin of 1e-9 covers floating-point rounding.
 */

/** Per item: a score in [0, 1], or null when unanswered (error, timeout, truncated). */
export type ItemHard = number | null;

export interface EarlyDecisionInput {
  /** The incumbent's (current skill's) outcome on every selection item, in item order. */
  incumbent: readonly ItemHard[];
  /** The incumbent's stored gate score (used by the gate when both sides answered every item). */
  incumbentScore: number;
  /** The candidate's outcomes so far, aligned with `incumbent`; undefined = not scored yet. */
  candidate: ReadonlyArray<ItemHard | undefined>;
  maxErrorShare: number;
}

const EPS = 1e-9;

/** True when every completion of the remaining items leads the gate to reject the candidate. */
export function rejectIsCertain(x: EarlyDecisionInput): boolean {
  const n = x.incumbent.length;
  if (n === 0 || x.candidate.length !== n) return false;
  let remaining = 0;
  let unpaired = 0;
  let paired = 0;
  let candSum = 0;
  let incSum = 0;
  let gain = 0; // what the remaining items could add to the candidate's paired sum over the incumbent's
  let incNull = false;
  let exact = true;
  let answeredSum = 0;
  let candNull = false;
  const isInt = (v: number) => v === 0 || v === 1;
  for (let i = 0; i < n; i++) {
    const b = x.incumbent[i]!;
    const a = x.candidate[i];
    if (b === null) incNull = true;
    else if (!isInt(b)) exact = false;
    if (a === undefined) {
      remaining++;
      if (b !== null) gain += 1 - b;
      continue;
    }
    if (a !== null && !isInt(a)) exact = false;
    if (a === null) candNull = true;
    else answeredSum += a;
    if (a === null || b === null) {
      unpaired++;
      continue;
    }
    paired++;
    candSum += a;
    incSum += b;
  }
  if (remaining === 0) return false; // nothing left to save: the gate decides as usual
  if (paired === 0) return false;
  if ((unpaired + remaining) / n > x.maxErrorShare) return false;
  const margin = exact ? 0 : EPS;
  if (candSum + gain > incSum - margin) return false;
  if (!incNull && !candNull) {
    // Every item may still end up answered on both sides: the gate then compares plain means.
    if ((answeredSum + remaining) / n > x.incumbentScore - margin) return false;
  }
  return true;
}

/** The highest final candidate mean over its answered items that the remaining items allow (a bound). */
export function candidateUpperBound(candidate: ReadonlyArray<ItemHard | undefined>): number {
  let sum = 0;
  let count = 0;
  for (const a of candidate) {
    if (a === null) continue;
    sum += a === undefined ? 1 : a;
    count++;
  }
  return count === 0 ? 0 : sum / count;
}
