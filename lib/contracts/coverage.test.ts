import { describe, expect, it } from "vitest";
import { coverageOfRecord, describeCoverage, describeUnanswered, isPartial } from "./coverage";

describe("selection coverage", () => {
  it("reads a step record's coverage and skip reason", () => {
    const c = coverageOfRecord({
      selection_n: 10,
      selection_n_paired: 6,
      selection_errors: 3,
      selection_timeouts: 0,
      selection_truncated: 1,
      gate_skip_reason: "too many",
    });
    expect(c).toEqual({ nItems: 10, nPaired: 6, nErrors: 3, nTimeouts: 0, nTruncated: 1, skipReason: "too many" });
    expect(isPartial(c)).toBe(true);
    expect(describeCoverage(c!)).toBe("scored on 6 of 10 items (3 errors, 1 truncated)");
  });

  it("is null for records without a gate, and not partial when every item was scored", () => {
    expect(coverageOfRecord({ action: "skip_no_patches" })).toBeNull();
    expect(isPartial(coverageOfRecord({ selection_n: 10, selection_n_paired: 10 }))).toBe(false);
  });

  it("words the counts", () => {
    expect(describeUnanswered({ nErrors: 1, nTimeouts: 2, nTruncated: 0 })).toBe("1 error, 2 timeouts");
    expect(describeUnanswered({ nErrors: 0, nTimeouts: 0, nTruncated: 0 })).toBe("");
  });
});
