import { describe, expect, it } from "vitest";
import { formatP, verdictOf, type GateEvidenceView } from "./evidence";

const ev = (o: Partial<GateEvidenceView>): GateEvidenceView => ({
  nPaired: 20,
  meanDiff: 0,
  ci95: [0, 0],
  resamples: 2000,
  improved: 0,
  regressed: 0,
  pValue: 1,
  minDetectableDiff: 0.3,
  significant: false,
  ...o,
});

describe("verdictOf", () => {
  it("says significant, not significant (and why), no difference or worse", () => {
    expect(verdictOf(ev({ meanDiff: 0.4, pValue: 0.0078, significant: true }))).toBe(
      "Candidate better by 40.0 points (p = 0.008): unlikely to be chance.",
    );
    expect(verdictOf(ev({ meanDiff: 0.1, pValue: 0.5 }))).toMatch(
      /not significant .* below the 30\.0 points this split can detect/,
    );
    expect(verdictOf(ev({ meanDiff: 0.5, pValue: 0.2 }))).toMatch(/changes went both ways/);
    expect(verdictOf(ev({ nPaired: 4, meanDiff: 0.25, minDetectableDiff: null }))).toMatch(/4 items cannot show/);
    expect(verdictOf(ev({ meanDiff: -0.05 }))).toBe("Candidate worse by 5.0 points on 20 paired items (p = 1.000).");
    expect(verdictOf(ev({}))).toBe("No difference on the 20 paired items (p = 1.000).");
    expect(verdictOf(null)).toMatch(/nothing to pair/);
    expect(formatP(0.0001)).toBe("< 0.001");
  });
});
