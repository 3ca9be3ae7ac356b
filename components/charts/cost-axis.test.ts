import { describe, expect, it } from "vitest";
import { buildCostCurve } from "@/lib/contracts/cost-curve";
import { costAxesOf, costAxisTitle, costNote, costTick } from "./cost-axis";

const commit = (step: number, rolloutCalls: number) => ({
  step,
  epoch: 1,
  currentScore: 0.5,
  bestScore: 0.5,
  tokens: {
    rollout: { calls: rolloutCalls, prompt_tokens: 1_000_000 * rolloutCalls, completion_tokens: 0 },
    analyst: { calls: 1, prompt_tokens: 0, completion_tokens: 100_000 },
  },
});

describe("score-vs-cost axis", () => {
  it("prices each point's cumulative tokens per stage and plots dollars by default", () => {
    // target $2 per 1M input tokens, optimizer $10 per 1M output tokens
    const price = (t: Record<string, { prompt_tokens: number; completion_tokens: number }>) =>
      (t.rollout!.prompt_tokens * 2 + t.analyst!.completion_tokens * 10) / 1e6;
    const pts = buildCostCurve([commit(1, 1), commit(2, 3)], price);
    expect(pts.map((p) => p.usd)).toEqual([3, 7]);
    expect(costAxesOf(null)[0]).toBe("usd");
    expect(costAxisTitle("usd", null)).toMatch(/^USD spent/);
    expect(costNote(null)).toBeNull();
    expect(costTick("usd", 7)).toBe("$7.00");
  });

  it("keeps tokens and says why when a price is unknown", () => {
    const pts = buildCostCurve([commit(1, 1)], () => null);
    expect(pts[0]!.usd).toBeNull();
    const note = "no price is known for openai-compatible:llama (the target)";
    expect(costAxesOf(note)).toEqual(["tokens", "calls"]);
    expect(costAxisTitle("tokens", note)).toMatch(/tokens .* not dollars/);
    expect(costNote(note)).toBe(`Cost is shown in tokens, not dollars: ${note}.`);
    expect(costTick("tokens", 1_500_000)).not.toMatch(/\$/);
  });

  it("without a price function the points carry no dollars", () => {
    expect(buildCostCurve([commit(1, 1)])[0]!.usd).toBeNull();
  });
});
