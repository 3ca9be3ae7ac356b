/**
 * Evidence behind a gate decision, from the per-item scores of the current and the candidate skill on the
 * items both answered: the paired mean difference with a seeded percentile-bootstrap 95 % interval, an exact
 * two-sided sign test on the items that changed (McNemar's exact test when scores are 0/1), and the smallest
 * difference the split could show as significant. Pure: the resampling uses our CPython-compatible
 * generator, so `random.Random(seed)` with `randrange(n)` in Python gives the same interval.
 */
import { PyRandom } from "./py-random";

export const BOOTSTRAP_RESAMPLES = 2_000;
export const SIGNIFICANCE_ALPHA = 0.05;

export interface PairedItemScore {
  current: number;
  candidate: number;
}

export interface GateEvidence {
  /** Items both skills answered: the only ones compared. */
  nPaired: number;
  /** Mean of candidate − current over the paired items. */
  meanDiff: number;
  /** Percentile bootstrap interval of `meanDiff` (resamples sorted; the 2.5 % and 97.5 % order statistics). */
  ci95: [number, number];
  resamples: number;
  /** Items the candidate scores higher on, and lower on; ties are left out of the sign test. */
  improved: number;
  regressed: number;
  /** Exact two-sided sign test on the changed items (1 when none changed). */
  pValue: number;
  /** Smallest mean difference this many paired items could show at `alpha`: k/n for the least k changed
   * items, all in one direction, whose p-value is below alpha (item scores in [0, 1]); null when even
   * every item improving could not reach it. */
  minDetectableDiff: number | null;
  /** The candidate is better and the difference is significant at alpha. */
  significant: boolean;
}

/** log of n choose k, for splits too large for exact counts. */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/** Exact two-sided sign test: P(at least as extreme a split of `up + down` changed items) under p = ½.
 * Exact binomial counts up to 1,000 changed items (2^n is still a finite double), log space beyond. */
export function signTestPValue(up: number, down: number): number {
  const n = up + down;
  if (n === 0) return 1;
  const k = Math.min(up, down);
  if (n <= 1000) {
    let c = 1n;
    let tail = 0n;
    for (let i = 0; i <= k; i++) {
      tail += c;
      c = (c * BigInt(n - i)) / BigInt(i + 1);
    }
    return Math.min(1, Number(2n * tail) / 2 ** n);
  }
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

/** Fewest changed items, all one way, that make the sign test significant: 6 at α = 0.05 (p = 1/32). */
export function minSignificantChanges(alpha = SIGNIFICANCE_ALPHA): number {
  let k = 1;
  while (signTestPValue(k, 0) >= alpha) k++;
  return k;
}

/** The smallest mean difference `nPaired` items in [0, 1] could show as significant; null when none can. */
export function minDetectableDiff(nPaired: number, alpha = SIGNIFICANCE_ALPHA): number | null {
  const k = minSignificantChanges(alpha);
  return nPaired >= k ? k / nPaired : null;
}

/**
 * When every paired difference is the same number, every resample draws n copies of it, so every resample
 * mean is that number summed n times in order, over n: the interval's ends are that one value, whichever
 * items the generator picks. Returned without drawing (the gate's most common case with a deterministic
 * target: most candidates change no item). Summed one at a time as the resampling does, so the bytes match.
 */
function allEqualMean(diffs: readonly number[]): number | null {
  const d = diffs[0]!;
  for (let i = 1; i < diffs.length; i++) if (!Object.is(diffs[i], d)) return null;
  let sum = 0;
  for (let i = 0; i < diffs.length; i++) sum += d;
  return sum / diffs.length;
}

function bootstrapInterval(diffs: readonly number[], seed: number, resamples: number): [number, number] {
  const n = diffs.length;
  if (n === 0) return [0, 0];
  const same = allEqualMean(diffs);
  if (same !== null) return [same, same];
  const rng = new PyRandom(seed);
  const values = Float64Array.from(diffs);
  const picks = new Uint32Array(n);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    // One resample's n draws, summed in draw order (the same floating-point sum as one draw at a time).
    rng.fillBelow(n, picks);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[picks[i]!]!;
    means[r] = sum / n;
  }
  means.sort();
  const lo = Math.floor(0.025 * resamples);
  const hi = Math.ceil(0.975 * resamples) - 1;
  return [means[lo]!, means[hi]!];
}

export function gateEvidence(
  pairs: readonly PairedItemScore[],
  opts: { seed: number; resamples?: number; alpha?: number },
): GateEvidence {
  const resamples = opts.resamples ?? BOOTSTRAP_RESAMPLES;
  const alpha = opts.alpha ?? SIGNIFICANCE_ALPHA;
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  const diffs = pairs.map((p) => p.candidate - p.current);
  const improved = diffs.filter((d) => d > 0).length;
  const regressed = diffs.filter((d) => d < 0).length;
  const meanDiff = diffs.length === 0 ? 0 : diffs.reduce((a, b) => a + b, 0) / diffs.length;
  const pValue = signTestPValue(improved, regressed);
  return {
    nPaired: diffs.length,
    meanDiff,
    ci95: bootstrapInterval(diffs, opts.seed, resamples),
    resamples,
    improved,
    regressed,
    pValue,
    minDetectableDiff: minDetectableDiff(diffs.length, alpha),
    significant: meanDiff > 0 && improved > regressed && pValue < alpha,
  };
}

/** The evidence as step-record fields (snake case, like the rest of step_record.json). */
export function evidenceRecord(ev: GateEvidence): Record<string, unknown> {
  return {
    n_paired: ev.nPaired,
    mean_diff: ev.meanDiff,
    ci95_low: ev.ci95[0],
    ci95_high: ev.ci95[1],
    resamples: ev.resamples,
    improved: ev.improved,
    regressed: ev.regressed,
    p_value: ev.pValue,
    min_detectable_diff: ev.minDetectableDiff,
    significant: ev.significant,
  };
}

/** The evidence back from its step-record fields; null when the record holds none (or an incomplete one). */
export function evidenceFromRecord(rec: unknown): GateEvidence | null {
  if (rec === null || typeof rec !== "object") return null;
  const r = rec as Record<string, unknown>;
  const n = (k: string) => (typeof r[k] === "number" ? (r[k] as number) : null);
  const fields = ["n_paired", "mean_diff", "ci95_low", "ci95_high", "resamples", "improved", "regressed", "p_value"];
  if (fields.some((k) => n(k) === null)) return null;
  return {
    nPaired: n("n_paired")!,
    meanDiff: n("mean_diff")!,
    ci95: [n("ci95_low")!, n("ci95_high")!],
    resamples: n("resamples")!,
    improved: n("improved")!,
    regressed: n("regressed")!,
    pValue: n("p_value")!,
    minDetectableDiff: n("min_detectable_diff"),
    significant: r.significant === true,
  };
}

/** The bootstrap seed of a gate: the run's seed and which gate it is, so a resumed run draws the same resamples. */
export const evidenceSeed = (runSeed: number, gate: { step: number } | { epoch: number } | { final: true }): number =>
  "step" in gate
    ? runSeed * 10_000 + gate.step
    : "epoch" in gate
      ? runSeed * 10_000 + 5_000 + gate.epoch
      : runSeed * 10_000 + 9_999;
