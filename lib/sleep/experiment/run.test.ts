import { describe, expect, it } from "vitest";
import { MOCK_RULES, MockBackend } from "../backend/mock";
import { consolidate } from "../consolidate";
import { assignSplits } from "../mine";
import { PromptRegistry } from "../prompts";
import { harmfulTask, PERSONAS } from "./personas";
import { runExperiment } from "./run";

const prompts = new PromptRegistry(null);

describe("the deterministic experiment", () => {
  it.each(["researcher", "programmer"] as const)(
    "%s: one night lifts the held-out score to 1 and the gate blocks the harmful rule",
    async (persona) => {
      const r = await runExperiment(new MockBackend(), prompts, { persona, nights: 4, editBudget: 4, limitTasks: 0 });
      expect(r).toMatchObject({
        persona,
        backend: "mock",
        nightsRun: 1,
        afterHoldout: 1,
        improved: true,
        gateBlocksHarmful: true,
        tokensUsed: 0,
      });
      expect(r.baselineHoldout).toBeLessThan(0.5);
      expect(r.trace[1]).toMatchObject({ night: 1, action: "accept_new_best", accepted: true });
      expect(r.finalSkillExcerpt).toContain(
        persona === "researcher" ? MOCK_RULES["arxiv-id"] : MOCK_RULES["commit-imperative"],
      );
    },
  );

  it("is deterministic", async () => {
    const a = await runExperiment(new MockBackend(), prompts, {
      persona: "researcher",
      nights: 4,
      editBudget: 4,
      limitTasks: 0,
    });
    const b = await runExperiment(new MockBackend(), prompts, {
      persona: "researcher",
      nights: 4,
      editBudget: 4,
      limitTasks: 0,
    });
    expect(b).toEqual(a);
  });

  it("the probe is not vacuous: the harmful rule is proposed from a train task and rejected by the gate", async () => {
    const learned = `${MOCK_RULES["wrap-answer"]}\n${MOCK_RULES["arxiv-id"]}\n`;
    const probe = assignSplits([harmfulTask(), ...PERSONAS.researcher().slice(0, 3)], {
      valFraction: 0.5,
      testFraction: 0,
      seed: 42,
    });
    expect(probe.find((t) => t.id === harmfulTask().id)!.split).toBe("train");
    const r = await consolidate({ backend: new MockBackend(), prompts, now: () => 0 }, probe, learned, "", {
      editBudget: 4,
      gateMetric: "mixed",
      gateMixedWeight: 0.5,
      gateNoRegression: false,
      gateOff: false,
      rolloutsK: 1,
      evolveSkill: true,
      evolveMemory: false,
      night: 2,
    });
    expect(r.rejectedEdits.map((e) => e.content)).toEqual([MOCK_RULES.__harmful__]);
    expect(r.newSkill).not.toContain(MOCK_RULES.__harmful__);
  });

  it("with one edit per night the researcher's two coupled rules never pass the gate alone; --limit-tasks bounds the set", async () => {
    const r = await runExperiment(new MockBackend(), prompts, {
      persona: "researcher",
      nights: 3,
      editBudget: 1,
      limitTasks: 6,
    });
    expect(r.nTasks).toBe(6);
    expect(r.trace.slice(1).map((t) => t.action)).toEqual(["reject", "reject", "reject"]);
    expect(r.improved).toBe(false);
  });
});
