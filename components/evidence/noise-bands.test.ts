import { describe, expect, it } from "vitest";
import { noiseBands } from "./use-noise-bands";

describe("noiseBands", () => {
  it("spans each measured epoch's committed steps; an epoch without steps yet draws nothing", () => {
    const steps = [1, 2, 3, 4].map((step) => ({ step, epoch: step <= 2 ? 1 : 2 }));
    const n = (epoch: number, low: number, high: number) => ({
      epoch,
      scores: [low, high],
      mean: 0,
      sd: 0,
      low,
      high,
      nItems: 6,
    });
    expect(noiseBands([n(1, 0.5, 0.67), n(2, 0.6, 0.6), n(3, 0.7, 0.8)], steps)).toEqual([
      { x1: 1, x2: 2, low: 0.5, high: 0.67 },
      { x1: 3, x2: 4, low: 0.6, high: 0.6 },
    ]);
  });
});
