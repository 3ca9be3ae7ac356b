import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../contracts/events";
import { ScriptedClient, testConfig, testDeps } from "./testing";
import { wordOptimizer } from "./testing-optimizer";
import { runTraining } from "./trainer";

type GateEvent = Extract<EngineEvent, { type: "gateDecided" }>;

describe("gate evidence in a run", () => {
  it("every gate decision carries its paired statistics, in the event and in the step record", async () => {
    const deps = testDeps({
      optimizer: wordOptimizer(),
      config: testConfig({ train: { num_epochs: 2, batch_size: 4 } }),
    });
    await runTraining(deps);
    const gates = deps.eventsSeen.filter((e): e is GateEvent => e.type === "gateDecided");
    expect(gates.length).toBeGreaterThan(0);
    const history = (await deps.store.getJson<Array<Record<string, unknown>>>("history.json"))!;
    for (const g of gates) {
      const ev = g.evidence!;
      expect(ev.nPaired).toBe(g.nPaired);
      // The word environment scores 0/1, gated on hard: the mean difference is the paired score difference.
      expect(ev.meanDiff).toBeCloseTo(g.candidatePairedScore - g.currentPairedScore, 12);
      expect(ev.ci95[0]).toBeLessThanOrEqual(ev.meanDiff);
      expect(ev.ci95[1]).toBeGreaterThanOrEqual(ev.meanDiff);
      expect(ev.resamples).toBe(2000);
      const rec = history.find((h) => h.step === g.step)!.gate_evidence as Record<string, unknown>;
      expect(rec).toMatchObject({
        n_paired: ev.nPaired,
        mean_diff: ev.meanDiff,
        p_value: ev.pValue,
        significant: ev.significant,
      });
    }
    // The first step fixes all six selection items: the least a 6-item split can show as significant (p = 1/32).
    expect(gates[0]!.evidence).toMatchObject({
      nPaired: 6,
      meanDiff: 1,
      improved: 6,
      regressed: 0,
      pValue: 1 / 32,
      minDetectableDiff: 1,
      significant: true,
    });
  });

  it("the same run gives the same intervals (seeded by the run seed and the step)", async () => {
    const run = async () => {
      const deps = testDeps({
        optimizer: wordOptimizer(),
        config: testConfig({ train: { num_epochs: 1, batch_size: 4 } }),
      });
      await runTraining(deps);
      return deps.eventsSeen.filter((e): e is GateEvent => e.type === "gateDecided").map((g) => g.evidence?.ci95);
    };
    expect(await run()).toEqual(await run());
  });
});

describe("evaluation.gate_rule: significant", () => {
  // An optimizer that always proposes the same one-word rule: it fixes 2 of the 6 selection items.
  const oneWord = () =>
    new ScriptedClient((req) =>
      req.system.startsWith("You are the failure analyst")
        ? JSON.stringify({
            batch_size: 1,
            patch: { reasoning: "alpha", edits: [{ op: "append", content: "- remember alpha" }] },
          })
        : JSON.stringify({ reasoning: "m", edits: [{ op: "append", content: "- remember alpha" }] }),
    );
  const firstGate = async (rule: "strict" | "significant") => {
    const deps = testDeps({
      optimizer: oneWord(),
      config: testConfig({ train: { num_epochs: 1, batch_size: 4 }, evaluation: { gate_rule: rule } }),
    });
    await runTraining(deps);
    return deps.eventsSeen.find((e): e is GateEvent => e.type === "gateDecided")!;
  };

  it("strict accepts a higher candidate; significant rejects it when two flips are all it has (p = 0.5)", async () => {
    const strict = await firstGate("strict");
    expect(strict.candidatePairedScore).toBeGreaterThan(strict.currentPairedScore);
    expect(strict.evidence).toMatchObject({ improved: 2, regressed: 0, pValue: 0.5, significant: false });
    expect(strict.action).toBe("accept_new_best");
    const significant = await firstGate("significant");
    expect(significant.evidence).toMatchObject({ improved: 2, significant: false });
    expect(significant.action).toBe("reject");
  });

  it("a significant improvement is still accepted under the significant rule", async () => {
    const deps = testDeps({
      optimizer: wordOptimizer(),
      config: testConfig({ train: { num_epochs: 1, batch_size: 4 }, evaluation: { gate_rule: "significant" } }),
    });
    await runTraining(deps);
    const g = deps.eventsSeen.find((e): e is GateEvent => e.type === "gateDecided")!;
    expect(g.evidence!.significant).toBe(true);
    expect(g.action).toBe("accept_new_best");
  });
});
