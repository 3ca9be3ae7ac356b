import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Item } from "../../engine/types";
import { checkSampleIntegrity } from "../common/sample-integrity";
import { listCorpusFiles, resolveCorpusRoots } from "./corpus";
import { scoreOfficeQa } from "./evaluate";
import { officeQaBenchmark, officeQaSample, officeQaSimRules } from "./index";
import { OFFICEQA_TOOLS_SYSTEM_BASE } from "./prompt";
import { createToolRuntime } from "./tools";

const splits = officeQaSample();
const rules = officeQaSimRules();
const initial = readFileSync(officeQaBenchmark.initialSkillPath, "utf8");
const all = [...splits.train, ...splits.val, ...splits.test];
const matches = (patterns: readonly string[], text: string) => patterns.some((p) => new RegExp(p, "i").test(text));
const roots = resolveCorpusRoots({ rootDir: process.cwd(), dataDirs: [], vars: {}, sample: true });
const files = listCorpusFiles(roots);

describe("OfficeQA sample", () => {
  it("has 18/12/13 normalised items over an 8-document corpus, about half of them hard", () => {
    expect([splits.train.length, splits.val.length, splits.test.length]).toEqual([18, 12, 13]);
    expect(files).toHaveLength(8);
    all.forEach((item, index) => {
      expect(officeQaBenchmark.normalise(item, { file: "sample", index })).toEqual(item);
      expect(["easy", "hard"]).toContain(item.category);
    });
    const hard = all.filter((i) => i.category === "hard").length;
    expect(hard / all.length).toBeGreaterThan(0.4);
    expect(hard / all.length).toBeLessThan(0.6);
  });

  it("names source files that exist, and every probe term greps to a hit in them", () => {
    for (const item of all) {
      const sources = item.source_files as string[];
      for (const f of sources)
        expect(
          files.some((c) => c.base === f),
          `${item.id}: ${f}`,
        ).toBe(true);
      const tools = createToolRuntime({ roots, files, sourceFiles: sources });
      const probe = (item.sim as { probe: string }).probe;
      const args = sources[0] ? { pattern: probe, path: sources[0] } : { pattern: probe };
      expect(tools.run({ name: "grep", arguments: args }), item.id).toMatch(/^(\S+:)?\d+: /);
    }
  });

  it("asks about figures the documents print, next to the distractors the wrong answers take", () => {
    const corpus = files.map((f) => readFileSync(f.abs, "utf8").replace(/,/g, "")).join("\n");
    const lookup = new Set(["right_bulletin", "fiscal_year_column", "plain_number"]);
    const lookups = all.filter((i) => {
      const sim = i.sim as { needs: string[] };
      return sim.needs.every((r) => lookup.has(r)) && !String(i.question).includes("by what percent");
    });
    expect(lookups.length).toBeGreaterThan(15);
    for (const item of lookups) {
      const sim = item.sim as { needs: string[]; wrong: Record<string, string> };
      expect(corpus.includes(String(item.ground_truth)), item.id).toBe(true);
      for (const r of ["right_bulletin", "fiscal_year_column"]) {
        if (sim.needs.includes(r)) expect(corpus.includes(sim.wrong[r] as string), `${item.id} ${r}`).toBe(true);
      }
    }
  });

  it("passes every integrity check (correct → 1, wrong → 0, coverage, detect/conflict hygiene)", () => {
    const problems = checkSampleIntegrity({
      rules,
      splits,
      initialSkill: initial,
      systemPrompt: OFFICEQA_TOOLS_SYSTEM_BASE,
      score: (item: Item, answer: string) => scoreOfficeQa(`<answer>${answer}</answer>`, item.answers as string[]).hard,
    });
    expect(problems).toEqual([]);
  });

  it("has six real rules over the taxonomy, two harmful ones, and a seed skill that contradicts convert_units", () => {
    const real = rules.filter((r) => !r.harmful);
    expect(real.map((r) => r.id)).toEqual([
      "right_bulletin",
      "fiscal_year_column",
      "quarter_span",
      "convert_units",
      "percent_change_base",
      "plain_number",
    ]);
    expect(new Set(real.map((r) => r.failure_type))).toEqual(
      new Set(["retrieval_miss", "evidence_miss", "operand_error", "calculation_error", "answer_format"]),
    );
    expect(rules.filter((r) => r.harmful)).toHaveLength(2);
    expect(initial).toMatch(/^## Retrieval$/m);
    expect(initial).toMatch(/^## Evidence$/m);
    expect(initial).toMatch(/^## Final answer$/m);
    const convert = real.find((r) => r.id === "convert_units");
    expect(convert && matches(convert.conflicts, initial)).toBe(true);
    const cleaned = initial.split("\n").filter((l) => !real.some((r) => matches(r.conflicts, l)));
    const trained = [...cleaned, ...real.map((r) => `- ${r.guidance}`)].join("\n");
    for (const r of real) expect(matches(r.detect, trained) && !matches(r.conflicts, trained), r.id).toBe(true);
    const none = all.filter((i) => (i.sim as { needs: string[] }).needs.length === 0).length;
    expect(none / all.length).toBeGreaterThan(0.1);
    expect(none / all.length).toBeLessThan(0.2);
  });
});
