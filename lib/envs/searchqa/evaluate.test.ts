import { describe, expect, it } from "vitest";
import { extractFinalAnswer } from "../common/answer";
import { exactMatch, f1Score, normaliseAnswer, scoreSearchQa } from "./evaluate";

describe("extractFinalAnswer", () => {
  it("takes the last <answer> tag, case-insensitive and across lines", () => {
    expect(extractFinalAnswer("<answer>first</answer> then <ANSWER>\n second \n</Answer>")).toBe("second");
  });
  it("falls back to the last non-empty line, then the whole text", () => {
    expect(extractFinalAnswer("thinking...\nParis\n\n")).toBe("Paris");
    expect(extractFinalAnswer("   ")).toBe("");
  });
});

describe("normaliseAnswer", () => {
  it("lowercases, drops ASCII punctuation and articles, collapses spaces", () => {
    expect(normaliseAnswer("  The  Eiffel-Tower!! ")).toBe("eiffeltower");
    expect(normaliseAnswer("A cat, an owl and THE dog.")).toBe("cat owl and dog");
    expect(normaliseAnswer("theatre of an era")).toBe("theatre of era");
    expect(normaliseAnswer("£2.40")).toBe("£240");
  });
});

describe("exact match and F1", () => {
  it("matches any gold after normalisation", () => {
    expect(exactMatch("the River Doune.", ["River Doune"])).toBe(1);
    expect(exactMatch("heron", ["silver heron", "heron"])).toBe(1);
    expect(exactMatch("Doune", ["River Doune"])).toBe(0);
  });
  it("computes token-multiset F1 as the max over golds", () => {
    expect(f1Score("Doune", ["River Doune"])).toBeCloseTo(2 / 3, 10);
    expect(f1Score("342", ["342 metres", "342"])).toBe(1);
    // repeated tokens count once per occurrence
    expect(f1Score("new new york", ["new york"])).toBeCloseTo(0.8, 10);
    expect(f1Score("paris", ["london"])).toBe(0);
  });
  it("scores an empty prediction 1 only against a gold that normalises to empty", () => {
    expect(f1Score("", ["Paris"])).toBe(0);
    expect(f1Score("the", ["a"])).toBe(1);
    expect(exactMatch("", ["the"])).toBe(1);
  });
});

describe("scoreSearchQa", () => {
  it("gives the failure reason only when EM is 0", () => {
    expect(scoreSearchQa("<answer>1894</answer>", ["1894"])).toEqual({ prediction: "1894", hard: 1, soft: 1 });
    const miss = scoreSearchQa("It opened on <answer>9 October 1894</answer>", ["1894", "in 1894"]);
    expect(miss.hard).toBe(0);
    expect(miss.soft).toBeCloseTo(0.5, 10);
    expect(miss.failReason).toBe("EM=0: predicted '9 October 1894' but expected ['1894', 'in 1894']");
  });
});
