import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkSampleIntegrity } from "../common/sample-integrity";
import { searchQaBenchmark, searchQaSample, searchQaSimRules } from "./index";
import { scoreSearchQa } from "./evaluate";
import { SEARCHQA_SYSTEM_BASE } from "./prompt";

const splits = searchQaSample();
const rules = searchQaSimRules();
const initial = readFileSync(searchQaBenchmark.initialSkillPath, "utf8");
const matches = (patterns: readonly string[], text: string) => patterns.some((p) => new RegExp(p, "i").test(text));

describe("SearchQA sample", () => {
  it("has 30/15/15 items with 2–4 [DOC] passages that contain the gold span", () => {
    expect([splits.train.length, splits.val.length, splits.test.length]).toEqual([30, 15, 15]);
    for (const item of [...splits.train, ...splits.val, ...splits.test]) {
      const context = item.context as string;
      const docs = context.split("\n").filter((l) => l.startsWith("[DOC] "));
      expect(docs.length, item.id).toBeGreaterThanOrEqual(2);
      expect(docs.length, item.id).toBeLessThanOrEqual(4);
      expect(context.includes((item.sim as { correct: string }).correct), item.id).toBe(true);
      expect(searchQaBenchmark.normalise(item, { file: "sample", index: 0 })).toEqual(item);
    }
  });

  it("passes every integrity check (correct → 1, wrong → 0, coverage, detect/conflict hygiene)", () => {
    const problems = checkSampleIntegrity({
      rules,
      splits,
      initialSkill: initial,
      systemPrompt: SEARCHQA_SYSTEM_BASE,
      score: (item, answer) => scoreSearchQa(`<answer>${answer}</answer>`, item.answers as string[]).hard,
    });
    expect(problems).toEqual([]);
  });

  it("has six real rules and two harmful distractors, and about 15% of items need none", () => {
    expect(rules.filter((r) => !r.harmful).map((r) => r.id)).toEqual([
      "short_span",
      "year_only",
      "keep_units",
      "full_name",
      "prefer_recent",
      "single_answer",
    ]);
    expect(rules.filter((r) => r.harmful)).toHaveLength(2);
    const all = [...splits.train, ...splits.val, ...splits.test];
    const none = all.filter((i) => (i.sim as { needs: string[] }).needs.length === 0).length;
    expect(none / all.length).toBeGreaterThan(0.1);
    expect(none / all.length).toBeLessThan(0.2);
  });

  it("seed skill contradicts short_span, and becomes fully guided once that line is replaced", () => {
    const real = rules.filter((r) => !r.harmful);
    const shortSpan = real.find((r) => r.id === "short_span");
    expect(shortSpan && matches(shortSpan.conflicts, initial)).toBe(true);
    const cleaned = initial.split("\n").filter((l) => !real.some((r) => matches(r.conflicts, l)));
    const trained = [...cleaned, ...real.map((r) => `- ${r.guidance}`)].join("\n");
    for (const r of real) expect(matches(r.detect, trained) && !matches(r.conflicts, trained), r.id).toBe(true);
  });
});
