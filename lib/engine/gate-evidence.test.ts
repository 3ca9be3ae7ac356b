import { describe, expect, it } from "vitest";
import { gateEvidence, minDetectableDiff, minSignificantChanges, signTestPValue } from "./gate-evidence";

const pairsOf = (current: number[], candidate: number[]) =>
  current.map((c, i) => ({ current: c, candidate: candidate[i]! }));

// Expected values computed independently on this machine with CPython 3 (random.Random(seed).randrange(n)
// for the resamples, sorted means, order statistics floor(0.025·R) and ceil(0.975·R)−1; math.comb for the
// exact binomial tail).
describe("gate evidence", () => {
  it("binary selection scores: paired difference, bootstrap interval and McNemar's exact p-value", () => {
    const ev = gateEvidence(
      pairsOf([0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0], [1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0]),
      { seed: 42 },
    );
    expect(ev.nPaired).toBe(15);
    expect(ev.meanDiff).toBeCloseTo(1 / 3, 15);
    expect(ev.ci95).toEqual([0.13333333333333333, 0.6]);
    expect([ev.improved, ev.regressed]).toEqual([5, 0]);
    expect(ev.pValue).toBe(0.0625);
    // Five of five flips up is not significant at 0.05; six would be: 6/15.
    expect(ev.significant).toBe(false);
    expect(ev.minDetectableDiff).toBeCloseTo(6 / 15, 15);
  });

  it("soft scores: ties are left out of the sign test, the interval may cross zero", () => {
    const ev = gateEvidence(
      pairsOf([0.2, 0.5, 0.9, 0.1, 0.4, 0.7, 0.3, 0.6], [0.3, 0.5, 0.8, 0.4, 0.6, 0.7, 0.2, 0.9]),
      { seed: 76511 },
    );
    expect(ev.meanDiff).toBe(0.08750000000000001);
    expect(ev.ci95).toEqual([-0.012499999999999997, 0.2]);
    expect([ev.improved, ev.regressed]).toEqual([4, 2]);
    expect(ev.pValue).toBe(0.6875);
    expect(ev.significant).toBe(false);
  });

  it("the same seed gives the same interval; another seed may not", () => {
    const pairs = pairsOf([0, 0, 1, 0, 1, 0, 0, 1], [1, 0, 1, 1, 1, 0, 1, 1]);
    expect(gateEvidence(pairs, { seed: 7 }).ci95).toEqual(gateEvidence(pairs, { seed: 7 }).ci95);
    const seeds = new Set([1, 2, 3, 4, 5].map((seed) => gateEvidence(pairs, { seed, resamples: 200 }).ci95.join()));
    expect(seeds.size).toBeGreaterThan(1);
  });

  it("exact sign test values", () => {
    expect(signTestPValue(6, 0)).toBe(0.03125);
    expect(signTestPValue(0, 6)).toBe(0.03125);
    expect(signTestPValue(5, 0)).toBe(0.0625);
    expect(signTestPValue(7, 2)).toBeCloseTo(0.1796875, 14);
    expect(signTestPValue(30, 12)).toBeCloseTo(0.007915897334896727, 14);
    expect(signTestPValue(0, 0)).toBe(1);
    expect(signTestPValue(3, 3)).toBe(1);
  });

  it("a significant improvement: many flips up, none down", () => {
    const cur = Array.from({ length: 40 }, (_, i) => (i < 10 ? 1 : 0));
    const cand = Array.from({ length: 40 }, (_, i) => (i < 22 ? 1 : 0));
    const ev = gateEvidence(pairsOf(cur, cand), { seed: 1 });
    expect(ev.improved).toBe(12);
    expect(ev.pValue).toBeCloseTo(2 / 4096, 15);
    expect(ev.significant).toBe(true);
    expect(ev.ci95[0]).toBeGreaterThan(0);
  });

  it("smallest detectable difference: 6 changed items at α = 0.05; a 5-item split can detect nothing", () => {
    expect(minSignificantChanges()).toBe(6);
    expect(minSignificantChanges(0.01)).toBe(8);
    expect(minDetectableDiff(5)).toBeNull();
    expect(minDetectableDiff(6)).toBe(1);
    expect(minDetectableDiff(60)).toBeCloseTo(0.1, 15);
  });

  it("no paired items: nothing to compare, nothing significant", () => {
    const ev = gateEvidence([], { seed: 1 });
    expect(ev).toMatchObject({
      nPaired: 0,
      meanDiff: 0,
      ci95: [0, 0],
      pValue: 1,
      minDetectableDiff: null,
      significant: false,
    });
    expect(() => gateEvidence([], { seed: 1, resamples: 0 })).toThrow(/resamples/);
  });
});

describe("sign test beyond exact counts", () => {
  it("log-space tail agrees with the exact one where both apply, and stays in [0, 1]", () => {
    // 1,200 changed items, 560 down: P computed with Python's math.comb: 0.02253662756750957
    expect(signTestPValue(640, 560)).toBeCloseTo(0.02253662756750957, 10);
    expect(signTestPValue(600, 600)).toBe(1);
  });
});
