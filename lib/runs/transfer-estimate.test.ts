import { describe, expect, it } from "vitest";
import { checkTransferBudget, estimateTransferCalls } from "./transfer-estimate";

describe("transfer budget", () => {
  it("estimates cells × test items × calls per item (at least one call per item)", () => {
    expect(estimateTransferCalls(4, 25, 1)).toEqual({ cells: 4, testItems: 25, callsPerItem: 1, calls: 100 });
    expect(estimateTransferCalls(2, 10, 3).calls).toBe(60);
    expect(estimateTransferCalls(2, 10, 0).calls).toBe(20);
    expect(estimateTransferCalls(0, 10, 2).calls).toBe(0);
  });

  it("passes at or under the cap and without one; over it, refuses naming maxCalls and the arithmetic", () => {
    const est = estimateTransferCalls(4, 25, 3);
    expect(() => checkTransferBudget(est, undefined)).not.toThrow();
    expect(() => checkTransferBudget(est, 300)).not.toThrow();
    expect(() => checkTransferBudget(est, 299)).toThrow(
      "maxCalls: this request may make up to 300 target calls (4 cells × 25 test items × up to 3 calls per item), over the cap of 299; nothing was queued.",
    );
    try {
      checkTransferBudget(estimateTransferCalls(1, 5, 1), 4);
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: "INVALID_REQUEST", field: "maxCalls" });
      expect((e as Error).message).toContain("(1 cell × 5 test items)");
    }
  });
});
