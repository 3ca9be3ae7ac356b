import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { normaliseQuestion } from "../../contracts/sim";
import type { Item } from "../../engine/types";
import { checkSampleIntegrity } from "../common/sample-integrity";
import { scoreDocVqa } from "./evaluate";
import { docVqaBenchmark, docVqaSample, docVqaSimRules } from "./index";
import { DOCVQA_SYSTEM_BASE } from "./prompt";

const splits = docVqaSample();
const rules = docVqaSimRules();
const initial = readFileSync(docVqaBenchmark.initialSkillPath, "utf8");
const all = [...splits.train, ...splits.val, ...splits.test];
const matches = (patterns: readonly string[], text: string) => patterns.some((p) => new RegExp(p, "i").test(text));
const score = (item: Item, answer: string) => scoreDocVqa(`<answer>${answer}</answer>`, item.answers as string[]);
type Sim = { needs: string[]; correct: string; wrong: Record<string, string> };

/** The visible text of a sample document's HTML source. */
function documentText(imagePath: string): string {
  const html = path.join(
    path.dirname(path.dirname(imagePath)),
    "documents",
    path.basename(imagePath).replace(/\.png$/, ".html"),
  );
  return readFileSync(html, "utf8")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&mdash;/g, "—")
    .replace(/&middot;/g, "·")
    .replace(/\s+/g, " ");
}

describe("DocVQA sample", () => {
  it("has 23/11/11 normalised items over 14 rendered pages, with unique questions", () => {
    expect([splits.train.length, splits.val.length, splits.test.length]).toEqual([23, 11, 11]);
    all.forEach((item, index) => expect(docVqaBenchmark.normalise(item, { file: "sample", index })).toEqual(item));
    expect(new Set(all.map((i) => normaliseQuestion(String(i.question)))).size).toBe(all.length);
    expect(new Set(all.map((i) => i.image_path)).size).toBe(14);
  });

  it("points every item at a committed, small greyscale PNG next to its HTML source", () => {
    for (const file of new Set(all.map((i) => String(i.image_path)))) {
      expect(existsSync(file), file).toBe(true);
      const png = readFileSync(file);
      expect(png.subarray(1, 4).toString("latin1"), file).toBe("PNG");
      const width = png.readUInt32BE(16);
      expect(width, file).toBeGreaterThanOrEqual(700);
      expect(width, file).toBeLessThanOrEqual(900);
      expect(statSync(file).size, file).toBeLessThan(60 * 1024);
    }
  });

  it("prints every gold answer on its page (so a real model can answer, too)", () => {
    for (const item of all) {
      const text = documentText(String(item.image_path));
      const sim = item.sim as Sim;
      expect(text.includes(sim.correct), `${item.id}: ${sim.correct}`).toBe(true);
      for (const key of ["right_column", "final_figure"]) {
        const wrong = sim.wrong[key];
        if (wrong !== undefined)
          expect(text.includes(wrong), `${item.id}: ${wrong} is another value on the page`).toBe(true);
      }
    }
  });

  it("passes every integrity check (correct → exact, wrong → hard 0, coverage, detect/conflict hygiene)", () => {
    const problems = checkSampleIntegrity({
      rules,
      splits,
      initialSkill: initial,
      systemPrompt: DOCVQA_SYSTEM_BASE,
      score: (item, answer) => score(item, answer).hard,
    });
    expect(problems).toEqual([]);
  });

  it("has near misses: some characteristic wrong answers earn partial ANLS credit", () => {
    const softs = all.flatMap((i) => Object.values((i.sim as Sim).wrong).map((w) => score(i, w).soft));
    expect(softs.filter((s) => s > 0).length).toBeGreaterThan(10);
    expect(softs.every((s) => s < 0.999)).toBe(true);
  });

  it("has five real rules and two harmful ones; the seed skill contradicts value_only", () => {
    const real = rules.filter((r) => !r.harmful);
    expect(real.map((r) => r.id)).toEqual([
      "value_only",
      "as_printed",
      "right_column",
      "complete_name",
      "final_figure",
    ]);
    expect(rules.filter((r) => r.harmful).map((r) => r.id)).toEqual(["round_amounts", "first_value"]);
    const valueOnly = real.find((r) => r.id === "value_only")!;
    expect(matches(valueOnly.conflicts, initial)).toBe(true);
    const cleaned = initial.split("\n").filter((l) => !real.some((r) => matches(r.conflicts, l)));
    const trained = [...cleaned, ...real.map((r) => `- ${r.guidance}`)].join("\n");
    for (const r of real) expect(matches(r.detect, trained) && !matches(r.conflicts, trained), r.id).toBe(true);
    const none = all.filter((i) => (i.sim as Sim).needs.length === 0).length;
    expect(none / all.length).toBeGreaterThan(0.1);
    expect(none / all.length).toBeLessThan(0.2);
  });
});
