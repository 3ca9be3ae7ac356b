import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../contracts/events";
import { evidenceFromRecord, evidenceRecord, gateEvidence } from "./gate-evidence";
import { leakageCounts } from "./leakage";
import { noiseSeed, summariseNoise } from "./noise-floor";
import { testConfig, testDeps } from "./testing";
import { wordOptimizer } from "./testing-optimizer";
import { runTraining } from "./trainer";

type Of<T extends EngineEvent["type"]> = Extract<EngineEvent, { type: T }>;

describe("noise floor (A/A)", () => {
  it("summarises repeat scores: mean, sample sd and range (0.5, 0.7, 0.6 → 0.6 ± 0.1)", () => {
    expect(summariseNoise([0.5, 0.7, 0.6])).toEqual({
      scores: [0.5, 0.7, 0.6],
      mean: 0.6,
      sd: 0.1,
      low: 0.5,
      high: 0.7,
    });
    expect(summariseNoise([0.25])).toMatchObject({ mean: 0.25, sd: 0, low: 0.25, high: 0.25 });
    expect(() => summariseNoise([])).toThrow(/at least one/);
  });

  it("repeat seeds differ from each other and across epochs", () => {
    const seeds = [1, 2].flatMap((e) => [0, 1, 2].map((k) => noiseSeed(42, e, k)));
    expect(new Set(seeds).size).toBe(seeds.length);
  });

  it("re-scores the current skill K times at the start of every epoch; off by default", async () => {
    const run = async (repeats?: number) => {
      const deps = testDeps({
        optimizer: wordOptimizer(),
        config: testConfig({ train: { num_epochs: 2, batch_size: 4 }, evaluation: { noise_floor_repeats: repeats } }),
      });
      await runTraining(deps);
      return deps;
    };
    const off = await run();
    expect(off.eventsSeen.some((e) => e.type === "noiseFloorMeasured")).toBe(false);
    const on = await run(3);
    const noise = on.eventsSeen.filter((e): e is Of<"noiseFloorMeasured"> => e.type === "noiseFloorMeasured");
    expect(noise.map((n) => n.epoch)).toEqual([1, 2]);
    for (const n of noise) {
      expect(n.scores).toHaveLength(3);
      // The scripted target answers the same prompt the same way: no spread.
      expect(n).toMatchObject({ sd: 0, low: n.mean, high: n.mean });
    }
    // Epoch 1 measures the seed skill: its score is the baseline's.
    const base = on.eventsSeen.find((e): e is Of<"baselineScored"> => e.type === "baselineScored")!;
    expect(noise[0]!.mean).toBeCloseTo(base.score, 6);
    // Each noise event comes before the epoch's first step.
    const order = on.eventsSeen.map((e) => e.type);
    expect(order.indexOf("noiseFloorMeasured")).toBeLessThan(order.indexOf("stepStarted"));
  });
});

describe("proposal sources and run summary", () => {
  it("patchesProposed says which analyst minibatch proposed each edit, and the summary counts leakage", async () => {
    const deps = testDeps({
      optimizer: wordOptimizer(),
      config: testConfig({ train: { num_epochs: 1, batch_size: 4 } }),
    });
    const summary = await runTraining(deps);
    const proposed = deps.eventsSeen.filter((e): e is Of<"patchesProposed"> => e.type === "patchesProposed");
    expect(proposed.length).toBeGreaterThan(0);
    for (const p of proposed) {
      expect(p.sources!.reduce((s, x) => s + x.nEdits, 0)).toBe(p.edits.length);
      for (const s of p.sources!) expect(s.itemIds.length).toBeGreaterThan(0);
    }
    const rollout = deps.eventsSeen.find((e): e is Of<"rolloutCompleted"> => e.type === "rolloutCompleted")!;
    const ids = new Set(rollout.results.map((r) => r.id));
    for (const id of proposed[0]!.sources!.flatMap((s) => s.itemIds)) expect(ids.has(id)).toBe(true);
    expect(summary.leakage).toMatchObject({ duplicates: expect.any(Number), memorised_lines: { seed: 0 } });
  });
});

describe("evidence record round trip and leakage counts", () => {
  it("evidenceFromRecord inverts evidenceRecord; an incomplete record gives null", () => {
    const ev = gateEvidence(
      [
        { current: 0, candidate: 1 },
        { current: 1, candidate: 1 },
        { current: 1, candidate: 0 },
        { current: 0, candidate: 1 },
      ],
      { seed: 7 },
    );
    expect(evidenceFromRecord(evidenceRecord(ev))).toEqual(ev);
    expect(evidenceFromRecord({ n_paired: 3 })).toBeNull();
    expect(evidenceFromRecord(undefined)).toBeNull();
  });

  it("counts a planted duplicate and a planted memorised gold answer", () => {
    const item = (id: string, question: string, answer: string) => ({ id, question, answers: [answer] });
    const splits = {
      train: [item("t1", "Which harbour town hosts the annual lantern regatta?", "Port Ellery")],
      val: [item("v1", "which harbour town hosts the annual lantern regatta", "Port Ellery")],
      test: [item("s1", "How many bridges cross the Vantor canal in the old quarter?", "seventeen")],
    };
    const counts = leakageCounts(splits, {
      seed: "Answer briefly.",
      best: "Answer briefly.\nThe canal has seventeen bridges.",
    });
    expect(counts).toEqual({
      items_compared: 3,
      duplicates: 1,
      exact_duplicates: 1,
      near_duplicates: 0,
      memorised_lines: { seed: 0, best: 1 },
      threshold: 0.8,
    });
  });
});
