import { describe, expect, it } from "vitest";
import { buildCostCurve, costPointOf } from "./cost-curve";

const commit = (step: number, calls: number) => ({
  step,
  epoch: 1,
  currentScore: 0.5,
  bestScore: 0.6,
  tokens: {
    rollout: { calls, prompt_tokens: 100 * calls, completion_tokens: 10 * calls },
    analyst: { calls: 1, prompt_tokens: 50, completion_tokens: 5 },
  },
});

describe("cost curve", () => {
  it("sums calls and tokens over the stages", () => {
    expect(costPointOf(commit(3, 4))).toEqual({
      step: 3,
      epoch: 1,
      calls: 5,
      tokens: 440 + 55,
      current: 0.5,
      best: 0.6,
    });
  });
  it("orders by step and keeps a replayed step's last commit", () => {
    const pts = buildCostCurve([commit(2, 2), commit(1, 1), commit(2, 3)]);
    expect(pts.map((p) => [p.step, p.calls])).toEqual([
      [1, 2],
      [2, 4],
    ]);
  });
});
