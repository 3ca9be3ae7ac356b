import { describe, expect, it } from "vitest";
import { bestOriginLabel, bestSentence, parseOrigin } from "./best";

describe("the best skill's one sentence", () => {
  it("reads the engine's origin labels", () => {
    expect(parseOrigin("initial_skill")).toEqual({ kind: "seed" });
    expect(parseOrigin("step_0009")).toEqual({ kind: "step", step: 9 });
    expect(parseOrigin("slow_update_epoch_03")).toEqual({ kind: "slow_update", epoch: 3 });
    expect(parseOrigin("slow_update_placeholder_epoch_01")).toEqual({ kind: "slow_update", epoch: 1 });
  });
  it("names the origin and where the score was measured", () => {
    expect(bestSentence({ score: 1, metric: "hard", origin: "slow_update_epoch_03", measuredBy: "final_check" })).toBe(
      "Best skill: slow update after epoch 3, selection 1.000 (final selection check)",
    );
    expect(bestSentence({ score: 0.9333, metric: "hard", origin: "step_0005", measuredBy: "step_gate" })).toBe(
      "Best skill: step 5, selection 0.933",
    );
    expect(bestSentence({ score: 0.5, metric: "soft", origin: "initial_skill", measuredBy: "baseline" })).toBe(
      "Best skill: the seed skill, selection (soft) 0.500",
    );
    expect(bestSentence({ score: null, metric: "hard", origin: null, measuredBy: null })).toBe(
      "Best skill: not measured yet",
    );
    expect(bestOriginLabel({ bestOrigin: "slow_update_epoch_02", bestMeasuredBy: "final_check" })).toBe(
      "slow update after epoch 2 · final selection check",
    );
  });
});
