import { describe, expect, it } from "vitest";
import { buildSimKnowledge, type SimRule } from "../../contracts/sim";
import { withSkillSection } from "../../contracts/target-skill";
import { simAnalyst } from "./analyst";
import { analystKey, targetSkill } from "./parse";
import { simTargetAnswer } from "./target";

// The sim's decisions depend on the skill, the user content and the item ids — never on the wording of
// the prompts around them — so rewording a benchmark's instructions leaves a simulated run unchanged.

const rule = (id: string, harmful = false): SimRule => ({
  id,
  title: `${id} missing`,
  failure_type: "rule_missing",
  guidance: `Always apply ${id} carefully.`,
  detect: [`apply ${id}`],
  conflicts: [],
  harmful,
});
const items = Array.from({ length: 40 }, (_, i) => ({
  id: `q${i}`,
  question: `question number ${i}`,
  sim: { needs: ["alpha"], correct: `right ${i}`, wrong: { alpha: `wrong ${i}` } },
}));
const knowledge = buildSimKnowledge([rule("alpha"), rule("noise", true)], items);
const SKILL = "# Skill\n- Always apply alpha carefully.\n## A heading of the skill's own";
const user = (i: number) => `## Context\n[DOC] some passage\n\n## Question\nquestion number ${i}`;

describe("sim target keying", () => {
  it("reads the skill wherever the prompt puts it, and gives the same answers whatever the wording around it", () => {
    const first = withSkillSection("You answer questions.", SKILL, "## Answer Format\nUse <answer></answer>.");
    const last = withSkillSection("Other role line.\nMore rules that differ.", SKILL);
    expect(targetSkill(first)).toBe(SKILL);
    expect(targetSkill(last)).toBe(SKILL);
    const opts = { knowledge, slipRate: 0.5, seed: 7 };
    const a = items.map((_, i) => simTargetAnswer(first, user(i), opts));
    const b = items.map((_, i) => simTargetAnswer(last, user(i), opts));
    expect(b).toEqual(a);
    // The slip rate really draws: some answers slip, some do not (so the equality above is not vacuous).
    expect(a.some((x) => x.includes("<answer>wrong"))).toBe(true);
    expect(a.some((x) => x.includes("<answer>right"))).toBe(true);
  });

  it("a different skill changes the draws", () => {
    const opts = { knowledge, slipRate: 0.5, seed: 7 };
    const a = items.map((_, i) => simTargetAnswer(withSkillSection("R.", SKILL), user(i), opts));
    const b = items.map((_, i) => simTargetAnswer(withSkillSection("R.", `${SKILL}\n- extra`), user(i), opts));
    expect(b).not.toEqual(a);
  });
});

describe("sim analyst keying", () => {
  const block = (i: number, systemPrompt: string | null) =>
    [
      `### Trajectory ${i + 1} (id=q${i})`,
      `Task: question number ${i}`,
      "Failure reason: EM=0",
      `Prediction: wrong ${i}`,
      "Steps: 1",
      ...(systemPrompt === null ? [] : ["#### Target System Prompt", systemPrompt]),
      "",
      "[user] ...",
    ].join("\n");
  const prompt = (intro: string, systemPrompt: string | null) =>
    `${intro}\n## Current Skill\n<skill>\n# Skill\n</skill>\n\nat most L=4 edits\n\n${items
      .slice(0, 6)
      .map((_, i) => block(i, systemPrompt))
      .join("\n\n---\n\n")}`;

  it("ignores the prompt wording and the target system prompt shown in each trajectory", () => {
    const bare = prompt("## Task\nFind the failures.", null);
    const shown = prompt(
      "## Task\nWorded differently.",
      withSkillSection("You answer.", "# Skill\nPrediction: not a header field\nFailure reason: nor this"),
    );
    expect(analystKey(shown)).toBe(analystKey(bare));
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const o = { knowledge, unhelpfulRate: 0.5, seed };
      expect(simAnalyst("failure", "patch", "", shown, o)).toBe(simAnalyst("failure", "patch", "", bare, o));
      expect(simAnalyst("success", "patch", "", shown, o)).toBe(simAnalyst("success", "patch", "", bare, o));
    }
  });

  it("keys on each trajectory's prediction", () => {
    const a = prompt("", null);
    expect(analystKey(a.replace("Prediction: wrong 0", "Prediction: other"))).not.toBe(analystKey(a));
  });
});
