import { describe, expect, it } from "vitest";
import { BOOTSTRAP_RESAMPLES, gateEvidence } from "./gate-evidence";
import { PyRandom } from "./py-random";

/** The percentile bootstrap drawn the plain way, one `randbelow` per pick: what the gate must agree with. */
function referenceInterval(diffs: number[], seed: number, resamples = BOOTSTRAP_RESAMPLES): [number, number] {
  const rng = new PyRandom(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < diffs.length; i++) sum += diffs[rng.randbelow(diffs.length)]!;
    means.push(sum / diffs.length);
  }
  means.sort((a, b) => a - b);
  return [means[Math.floor(0.025 * resamples)]!, means[Math.ceil(0.975 * resamples) - 1]!];
}

const pairsFromDiffs = (diffs: number[]) => diffs.map((d) => ({ current: 0, candidate: d }));

describe("gate evidence: all paired differences equal", () => {
  it("gives the interval the resampling gives, to the bit, over random values and sizes", () => {
    const rng = new PyRandom(20261202);
    // Values whose repeated sums round (0.1, 1/3, …), integers, zero and negatives; sizes 1 to 400.
    const values = [0, 1, -1, 0.1, 0.7, -0.3, 1 / 3, 2 / 3, 0.05, 0.95, 1e-9];
    for (let trial = 0; trial < 60; trial++) {
      const d = trial < values.length ? values[trial]! : rng.random() * 2 - 1;
      const n = 1 + rng.randbelow(400);
      const seed = rng.randbelow(1_000_000);
      const diffs = Array.from({ length: n }, () => d);
      const got = gateEvidence(pairsFromDiffs(diffs), { seed }).ci95;
      const want = referenceInterval(diffs, seed);
      expect([Object.is(got[0], want[0]), Object.is(got[1], want[1])], `d=${d} n=${n}: ${got} vs ${want}`).toEqual([
        true,
        true,
      ]);
    }
  });

  it("differences that are not all equal still resample, and agree with the reference", () => {
    const rng = new PyRandom(7);
    for (let trial = 0; trial < 5; trial++) {
      const n = 2 + rng.randbelow(60);
      const diffs = Array.from({ length: n }, (_, i) => (i === n - 1 ? 1 : 0));
      const seed = rng.randbelow(1_000_000);
      expect(gateEvidence(pairsFromDiffs(diffs), { seed, resamples: 500 }).ci95).toEqual(
        referenceInterval(diffs, seed, 500),
      );
    }
  });
});
