import { describe, expect, it } from "vitest";
import type { StepRow } from "@/lib/contracts/api";
import { ema, epochBoundaries, epochStarts, scoreDomain, toStepPoints, withGateDelta } from "./chart-data";

const row = (step: number, epoch: number, extra: Partial<StepRow> = {}): StepRow => ({
  step,
  epoch,
  stepInEpoch: step,
  action: "accept",
  budget: 4,
  nFailurePatches: 3,
  nSuccessPatches: 2,
  nMerged: 4,
  nRanked: 3,
  nApplied: 2,
  nSkipped: 1,
  trainHard: 0.5,
  trainSoft: 0.6,
  selectionHard: 0.5,
  selectionSoft: 0.6,
  candidateScore: 0.55,
  currentScore: 0.55,
  bestScore: 0.55,
  coverage: null,
  createdAt: "2026-03-01T12:00:00Z",
  ...extra,
});

describe("toStepPoints", () => {
  it("sums failure and success patches into proposed and maps the ranked count to selected", () => {
    const [p] = toStepPoints([row(1, 1)]);
    expect(p).toMatchObject({ step: 1, proposed: 5, merged: 4, selected: 3, applied: 2, budget: 4, candidate: 0.55 });
  });
  it("finds epoch boundaries", () => {
    expect(epochStarts(toStepPoints([row(1, 1), row(2, 1), row(3, 2), row(4, 3)]))).toEqual([3, 4]);
  });
});

describe("ema", () => {
  it("is the identity at weight 0 and debiased otherwise", () => {
    expect(ema([1, 0, 1], 0)).toEqual([1, 0, 1]);
    const s = ema([1, 1, 1], 0.9);
    for (const v of s) expect(v).toBeCloseTo(1);
  });
  it("skips nulls without resetting", () => {
    const s = ema([0, null, 1], 0.5);
    expect(s[1]).toBeNull();
    expect(s[2]).toBeCloseTo((0.5 * 0.5 * 0 + 0.5 * 1) / (1 - 0.25));
  });
});

describe("scoreDomain", () => {
  it("widens [0, 1] only when needed", () => {
    expect(scoreDomain([0.2, null, 0.9])).toEqual([0, 1]);
    expect(scoreDomain([1.4, -0.1])).toEqual([-0.1, 1.4]);
  });
});

describe("withGateDelta / epochBoundaries", () => {
  it("compares each candidate with the current score before its step, starting from the baseline", () => {
    const pts = withGateDelta(
      toStepPoints([
        row(1, 1, { action: "accept_new_best", candidateScore: 0.6, currentScore: 0.6 }),
        row(2, 1, { action: "reject", candidateScore: 0.5, currentScore: 0.6 }),
        row(3, 2, { action: "skip_no_patches", candidateScore: null, currentScore: 0.6 }),
      ]),
      0.4,
    );
    expect(pts.map((p) => [p.decision, p.before, p.delta === null ? null : Number(p.delta.toFixed(3))])).toEqual([
      ["accepted", 0.4, 0.2],
      ["rejected", 0.6, -0.1],
      ["skipped", 0.6, null],
    ]);
  });
  it("labels each boundary with the epoch that starts there", () => {
    expect(epochBoundaries(toStepPoints([row(1, 1), row(2, 2), row(3, 2), row(4, 3)]))).toEqual([
      { step: 2, epoch: 2 },
      { step: 4, epoch: 3 },
    ]);
  });
});
