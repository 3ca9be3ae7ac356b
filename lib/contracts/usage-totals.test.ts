import { describe, expect, it } from "vitest";
import { sumUsage, usageByStage } from "./usage-totals";

const row = (stage: string, calls: number, costUsd: number | null) => ({
  stage,
  calls,
  promptTokens: calls * 10,
  completionTokens: calls,
  costUsd,
});

describe("run totals from usage rows", () => {
  it("adds every row, both roles", () => {
    expect(sumUsage([row("rollout", 5, 0.5), row("analyst", 2, 0.25)])).toEqual({
      calls: 7,
      promptTokens: 70,
      completionTokens: 7,
      costUsd: 0.75,
    });
  });
  it("an unknown price anywhere keeps the cost unknown, never 0", () => {
    expect(sumUsage([row("rollout", 5, 0.5), row("judge", 1, null)]).costUsd).toBeNull();
  });
  it("groups stages over roles for the per-stage table", () => {
    expect(usageByStage([row("rollout", 5, 0), row("judge", 1, 0), row("rollout", 2, 0)])).toEqual([
      { stage: "judge", calls: 1, promptTokens: 10, completionTokens: 1 },
      { stage: "rollout", calls: 7, promptTokens: 70, completionTokens: 7 },
    ]);
  });
});
