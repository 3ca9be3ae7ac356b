import { describe, expect, it } from "vitest";
import { buildCostCurve, costPointOf, usdNoteOf } from "./cost-curve";

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
      usd: null,
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

describe("why the cost view shows no dollars", () => {
  const pt = (usd: number | null) => ({ ...costPointOf(commit(1, 1))!, usd });
  const role = (r: "optimizer" | "target", backend: string, model: string, price: "unknown" | "free" | "paid") => ({
    role: r,
    backend,
    model,
    price,
  });
  const sim = [role("target", "sim", "sim-target", "free"), role("optimizer", "sim", "sim-optimizer", "free")];
  const paid = [role("target", "openai", "gpt-5-mini", "paid"), role("optimizer", "openai", "gpt-5", "paid")];
  it("names the role whose price is unknown, before and after the first point", () => {
    const roles = [
      role("target", "openai-compatible", "llama", "unknown"),
      role("optimizer", "openai", "gpt-5", "paid"),
    ];
    const note = "no price is known for openai-compatible:llama (the target)";
    expect(usdNoteOf([pt(null)], roles)).toBe(note);
    expect(usdNoteOf([], roles)).toBe(note);
  });
  it("says the simulated model is free, even before the first point", () => {
    expect(usdNoteOf([pt(0), pt(0)], sim)).toBe("the simulated model costs nothing");
    expect(usdNoteOf([], sim)).toBe("the simulated model costs nothing");
  });
  it("is null when dollars can be plotted", () => {
    expect(usdNoteOf([pt(0.01), pt(0.02)], paid)).toBeNull();
    expect(usdNoteOf([], paid)).toBeNull();
    // A sim target with a paid optimizer still costs dollars.
    expect(usdNoteOf([pt(0.02)], [sim[0]!, paid[1]!])).toBeNull();
  });
});
