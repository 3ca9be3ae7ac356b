import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Item } from "../../engine/types";
import { checkSampleIntegrity } from "../common/sample-integrity";
import { scoreLiveMath } from "./evaluate";
import { liveMathBenchmark, liveMathSample, liveMathSimRules } from "./index";
import type { Choice } from "./normalise";
import { LIVEMATH_SYSTEM_BASE } from "./prompt";
import { shuffleItemChoices } from "./shuffle";

const splits = liveMathSample();
const rules = liveMathSimRules();
const initial = readFileSync(liveMathBenchmark.initialSkillPath, "utf8");
const all = [...splits.train, ...splits.val, ...splits.test];
const matches = (patterns: readonly string[], text: string) => patterns.some((p) => new RegExp(p, "i").test(text));
const score = (item: Item, answer: string) =>
  scoreLiveMath(`<answer>${answer}</answer>`, item.choices as Choice[], item.correct_choice as Choice).hard;

describe("LiveMath sample", () => {
  it("has 30/15/15 normalised items with 4–5 distinct options", () => {
    expect([splits.train.length, splits.val.length, splits.test.length]).toEqual([30, 15, 15]);
    all.forEach((item, index) => {
      expect(liveMathBenchmark.normalise(item, { file: "sample", index })).toEqual(item);
      const choices = item.choices as Choice[];
      expect(choices.length, item.id).toBeGreaterThanOrEqual(4);
      expect(choices.length, item.id).toBeLessThanOrEqual(5);
      expect(new Set(choices.map((c) => c.text.toLowerCase())).size, item.id).toBe(choices.length);
      expect(item.id).toBe(`${String(item.month)}:${String(item.no)}`);
      expect((item.theorem as string).length, item.id).toBeGreaterThan(20);
      expect((item.sketch as string).length, item.id).toBeGreaterThan(20);
    });
  });

  it("passes every integrity check (correct → 1, wrong → 0, coverage, detect/conflict hygiene)", () => {
    const problems = checkSampleIntegrity({
      rules,
      splits,
      initialSkill: initial,
      systemPrompt: LIVEMATH_SYSTEM_BASE,
      score,
    });
    expect(problems).toEqual([]);
  });

  it("keeps the annotations valid after any batch shuffle (texts, not labels)", () => {
    for (const seed of [1, 2, 1043]) {
      const shuffled = { train: splits.train.map((i) => shuffleItemChoices(i, seed)), val: [], test: [] };
      for (const item of shuffled.train) {
        const sim = item.sim as { correct: string; wrong: Record<string, string> };
        expect(score(item, sim.correct), item.id).toBe(1);
        for (const wrong of Object.values(sim.wrong)) expect(score(item, wrong), item.id).toBe(0);
      }
    }
  });

  it("has six real rules, two harmful ones, and a seed skill that contradicts keep_hypotheses", () => {
    const real = rules.filter((r) => !r.harmful);
    expect(real.map((r) => r.id)).toEqual([
      "quantifier_order",
      "keep_hypotheses",
      "endpoint_cases",
      "no_overclaim",
      "sharp_constant",
      "converse_direction",
    ]);
    expect(rules.filter((r) => r.harmful)).toHaveLength(2);
    const keep = real.find((r) => r.id === "keep_hypotheses");
    expect(keep && matches(keep.conflicts, initial)).toBe(true);
    const cleaned = initial.split("\n").filter((l) => !real.some((r) => matches(r.conflicts, l)));
    const trained = [...cleaned, ...real.map((r) => `- ${r.guidance}`)].join("\n");
    for (const r of real) expect(matches(r.detect, trained) && !matches(r.conflicts, trained), r.id).toBe(true);
    const none = all.filter((i) => (i.sim as { needs: string[] }).needs.length === 0).length;
    expect(none / all.length).toBeCloseTo(0.15, 2);
  });
});
