import { describe, expect, it } from "vitest";
import type { CompareResponse } from "@/lib/contracts/api";
import { seedGroupsOf, spreadOf } from "./seed-groups";

type Run = CompareResponse["runs"][number];
const run = (id: string, over: Partial<Run>): Run => ({
  id,
  name: id,
  status: "succeeded",
  simulated: true,
  bestScore: null,
  bestOrigin: null,
  bestMeasuredBy: null,
  gateMetric: "hard",
  calls: 0,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: null,
  baselineScore: null,
  testInitial: null,
  testBest: null,
  testFinal: null,
  configGroup: 1,
  seeds: {},
  curve: [],
  ...over,
});

describe("mean ± spread over seeds", () => {
  it("uses the sample standard deviation and skips missing values", () => {
    const s = spreadOf([0.5, null, 0.7, 0.6]);
    expect(s.n).toBe(3);
    expect(s.mean).toBeCloseTo(0.6, 12);
    expect(s.sd).toBeCloseTo(0.1, 12);
    expect([s.min, s.max]).toEqual([0.5, 0.7]);
    expect(spreadOf([0.4]).sd).toBeNull();
    expect(spreadOf([null]).mean).toBeNull();
  });

  it("groups runs of one config, names the seeds that vary, and leaves single runs out", () => {
    const groups = seedGroupsOf([
      run("a", {
        configGroup: 1,
        seeds: { "train.seed": "1", "env.split_seed": "42" },
        bestScore: 0.5,
        testInitial: 0.4,
        testBest: 0.5,
        costUsd: 1,
      }),
      run("b", {
        configGroup: 1,
        seeds: { "train.seed": "2", "env.split_seed": "42" },
        bestScore: 0.7,
        testInitial: 0.4,
        testBest: 0.7,
      }),
      run("c", { configGroup: 2, seeds: { "train.seed": "1" }, bestScore: 0.9 }),
    ]);
    expect(groups).toHaveLength(1);
    const g = groups[0]!;
    expect(g.runs.map((r) => r.id)).toEqual(["a", "b"]);
    expect(g.seedSummary).toEqual(["train.seed 1, 2"]);
    expect(g.stats.bestScore.mean).toBeCloseTo(0.6, 12);
    expect(g.stats.testGain.mean).toBeCloseTo(0.2, 12);
    expect(g.stats.cost).toMatchObject({ n: 1, mean: 1, sd: null });
  });
});
