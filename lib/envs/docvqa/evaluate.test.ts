import { describe, expect, it } from "vitest";
import {
  anls,
  anlsOne,
  extractDocVqaAnswer,
  extractGoldAnswers,
  levenshtein,
  normaliseAnls,
  scoreDocVqa,
} from "./evaluate";

describe("extractDocVqaAnswer", () => {
  it("takes the text between the last <answer> and the last </answer>, case-insensitive", () => {
    expect(extractDocVqaAnswer("<answer>a</answer> then <ANSWER>\n  b \n</Answer>")).toBe("b");
    expect(extractDocVqaAnswer("I read it.\n<answer>$1,284.50</answer>\n")).toBe("$1,284.50");
  });
  it("falls back to the last non-empty line when there is no closed tag after the last opening one", () => {
    expect(extractDocVqaAnswer("thinking\nINV-20417\n\n")).toBe("INV-20417");
    expect(extractDocVqaAnswer("x </answer> then\n<answer>y")).toBe("<answer>y");
    expect(extractDocVqaAnswer("  \n ")).toBe("");
  });
});

describe("extractGoldAnswers", () => {
  it("parses Python-literal list strings, with either quote and escapes", () => {
    expect(extractGoldAnswers(`['a', "b's"]`)).toEqual(["a", "b's"]);
    expect(extractGoldAnswers(`['O\\'Neil', 'tab\\there', u'caf\\xe9']`)).toEqual(["O'Neil", "tab\there", "café"]);
    expect(extractGoldAnswers(`[('x', 'y')]`)).toEqual(["x", "y"]);
  });
  it("parses JSON, lists, dicts and list items that are dicts", () => {
    expect(extractGoldAnswers(`["1,120", "1120"]`)).toEqual(["1,120", "1120"]);
    expect(extractGoldAnswers(["a", 3])).toEqual(["a", "3"]);
    expect(extractGoldAnswers({ answers: ["a", "b"] })).toEqual(["a", "b"]);
    expect(extractGoldAnswers({ ground_truth: "c" })).toEqual(["c"]);
    expect(extractGoldAnswers([{ text: "t" }, { answer: "u" }, { value: 5 }])).toEqual(["t", "u", "5"]);
    expect(extractGoldAnswers(`[{'text': 'x'}, {'answer': 'y'}]`)).toEqual(["x", "y"]);
  });
  it("keeps a plain string (even one with brackets that is not a literal) as one answer", () => {
    expect(extractGoldAnswers("Dr. Mira J. Harlow")).toEqual(["Dr. Mira J. Harlow"]);
    expect(extractGoldAnswers("(612) 555-0148")).toEqual(["(612) 555-0148"]);
    expect(extractGoldAnswers("[draft] notes")).toEqual(["[draft] notes"]);
    expect(extractGoldAnswers("(675)")).toEqual(["(675)"]);
    expect(extractGoldAnswers("(2,250)")).toEqual(["(2,250)"]);
  });
});

describe("ANLS", () => {
  it("normalises by trimming, lowercasing and collapsing spaces, keeping punctuation", () => {
    expect(normaliseAnls("  Total   DUE:\n $5.00 ")).toBe("total due: $5.00");
  });
  it("computes Levenshtein distance over code points", () => {
    expect(levenshtein("kitten", "sitting")).toBe(3);
    expect(levenshtein("", "abc")).toBe(3);
    expect(levenshtein("café", "cafe")).toBe(1);
  });
  it("scores exact answers 1 regardless of case and spacing", () => {
    expect(anls("  inv-20417 ", ["INV-20417"])).toBe(1);
  });
  it("scores near matches 1 - NL", () => {
    expect(anlsOne("Mira Harlow", "Dr. Mira J. Harlow")).toBeCloseTo(1 - 7 / 18, 10);
    expect(anlsOne("1702", "1,702")).toBeCloseTo(0.8, 10);
    expect(anlsOne("12 May 1987", "19 May 1987")).toBeCloseTo(1 - 1 / 11, 10);
  });
  it("cuts at the 0.5 threshold: NL = 0.5 scores 0, just below scores just above 0.5", () => {
    expect(anlsOne("ab", "cd")).toBe(0);
    expect(anlsOne("abcd", "abxy")).toBe(0); // NL = 2/4 exactly
    expect(anlsOne("TOTAL $16.35", "$16.35")).toBe(0); // 6/12
    expect(anlsOne("abcde", "abcxy")).toBeCloseTo(0.6, 10); // NL = 0.4
    expect(anlsOne("abcdefg", "abcdxyz")).toBeCloseTo(4 / 7, 10); // NL = 3/7 < 0.5
  });
  it('handles empty strings: both empty → 1, one empty → 0; no gold counts as [""] (as the original)', () => {
    expect(anlsOne("", "  ")).toBe(1);
    expect(anlsOne("", "x")).toBe(0);
    expect(anlsOne("x", "")).toBe(0);
    expect(anls("x", [])).toBe(0);
    expect(anls("  ", [])).toBe(1);
    expect(scoreDocVqa("<answer></answer>", [])).toMatchObject({ hard: 1, soft: 1 });
    expect(scoreDocVqa("<answer>x</answer>", [])).toMatchObject({ hard: 0, soft: 0 });
  });
  it("takes the maximum over the golds", () => {
    expect(anls("7215", ["#007215", "007215"])).toBeCloseTo(1 - 2 / 6, 10);
    expect(anls("007215", ["#007215", "007215"])).toBe(1);
  });
});

describe("scoreDocVqa", () => {
  it("hard is 1 only for ANLS ≥ 0.999; soft is the ANLS", () => {
    expect(scoreDocVqa("<answer>Field Services</answer>", ["field services"])).toEqual({
      prediction: "Field Services",
      hard: 1,
      soft: 1,
    });
    const near = scoreDocVqa("<answer>Tomas Okafor</answer>", ["Tomas R. Okafor"]);
    expect(near.hard).toBe(0);
    expect(near.soft).toBeCloseTo(0.8, 10);
    expect(near.failReason).toBe(
      "ANLS=0.800 (near miss, not exact): predicted 'Tomas Okafor' but expected ['Tomas R. Okafor']",
    );
  });
  it("names a total miss", () => {
    expect(scoreDocVqa("<answer>Rockford</answer>", ["Duluth"])).toEqual({
      prediction: "Rockford",
      hard: 0,
      soft: 0,
      failReason: "ANLS=0: predicted 'Rockford' but expected ['Duluth']",
    });
  });
});
