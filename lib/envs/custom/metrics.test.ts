import { describe, expect, it } from "vitest";
import { parseNumber, scoreContains, scoreExact, scoreF1, scoreNumeric, scoreRegex, withinTolerance } from "./metrics";

describe("exact", () => {
  it("compares normalised text against any gold; soft is the best F1", () => {
    expect(scoreExact("The Corran Spire.", ["Corran Spire"])).toEqual({ hard: 1, soft: 1 });
    const miss = scoreExact("Spire", ["Corran Spire"]);
    expect(miss.hard).toBe(0);
    expect(miss.soft).toBeCloseTo(2 / 3, 10);
    expect(miss.failReason).toBe("EM=0: predicted 'Spire' but expected ['Corran Spire']");
  });
});

describe("contains", () => {
  it("needs a gold as whole words inside the answer", () => {
    expect(
      scoreContains("It was built by the Wexmoor Traction Company in 1899", ["Wexmoor Traction Company"]).hard,
    ).toBe(1);
    expect(scoreContains("Wexmoorish", ["Wexmoor"]).hard).toBe(0);
    expect(scoreContains("Cairn", ["Cairn Edge"])).toMatchObject({
      hard: 0,
      failReason: "contains=0: the answer 'Cairn' contains none of ['Cairn Edge']",
    });
  });
});

describe("f1", () => {
  it("passes at F1 ≥ 0.5 and keeps F1 as the soft score", () => {
    expect(scoreF1("River Doune", ["River Doune"])).toEqual({ hard: 1, soft: 1 });
    const half = scoreF1("Doune", ["River Doune"]); // P=1, R=1/2 → 2/3
    expect(half.hard).toBe(1);
    expect(half.soft).toBeCloseTo(2 / 3, 10);
    const low = scoreF1("the old mill by River Doune near town", ["River Doune"]); // P=2/7, R=1 → 4/9
    expect(low.hard).toBe(0);
    expect(low.soft).toBeCloseTo(4 / 9, 10);
    expect(low.failReason).toMatch(/^F1=0\.444 < 0\.5/);
  });
});

describe("numeric", () => {
  it("parses thousands separators, percent, currency, signs and exponents", () => {
    expect(parseNumber("1,234.5")).toBe(1234.5);
    expect(parseNumber("45%")).toBe(45);
    expect(parseNumber("$3,000")).toBe(3000);
    expect(parseNumber("€ 12.50")).toBe(12.5);
    expect(parseNumber("−2e3")).toBe(-2000);
    expect(parseNumber("about 12 apples and 3 pears")).toBe(3);
    expect(parseNumber("no idea")).toBeNull();
  });
  it("accepts the tolerance edge, relative to the gold with a floor of 1", () => {
    expect(withinTolerance(100.5, 100, 0.005)).toBe(true); // allowed 0.5: the edge counts
    expect(withinTolerance(100.51, 100, 0.005)).toBe(false);
    expect(withinTolerance(0.31, 0.3, 0.01)).toBe(true); // |g| < 1 → absolute 0.01
    expect(withinTolerance(0.32, 0.3, 0.01)).toBe(false);
    expect(withinTolerance(0.1 + 0.2, 0.3, 0)).toBe(true);
  });
  it("scores hard and soft alike, with a reason on a miss", () => {
    expect(scoreNumeric("The total is $1,200", ["1200"], 1e-6)).toEqual({ hard: 1, soft: 1 });
    expect(scoreNumeric("1201", ["1200"], 1e-6)).toMatchObject({
      hard: 0,
      soft: 0,
      failReason: "numeric=0: predicted 1201 but expected ['1200'] (tolerance 0.000001)",
    });
    expect(scoreNumeric("none", ["5"], 0.1)).toMatchObject({
      hard: 0,
      failReason: "no number in the answer 'none'; expected ['5']",
    });
    expect(scoreNumeric("12.4", ["12", "12.5"], 0.01)).toMatchObject({ hard: 1 }); // within 1% of 12.5, not of 12
    expect(scoreNumeric("12.4", ["12"], 0.01)).toMatchObject({ hard: 0 });
  });
});

describe("regex", () => {
  it("with {answer}: the whole answer must match the pattern around an escaped gold", () => {
    const pattern = String.raw`(?:option\s*)?{answer}\.?`;
    expect(scoreRegex("Option B.", ["B"], pattern).hard).toBe(1);
    expect(scoreRegex("b", ["B"], pattern).hard).toBe(1);
    expect(scoreRegex("Option B or C", ["B"], pattern)).toMatchObject({
      hard: 0,
      failReason: expect.stringContaining("does not match"),
    });
    expect(scoreRegex("3.5", ["3.5"], "{answer}").hard).toBe(1);
    expect(scoreRegex("3x5", ["3.5"], "{answer}").hard).toBe(0); // the gold's "." is literal
  });
  it("without {answer}: the first group is the answer, compared like exact", () => {
    expect(scoreRegex("Final: C (because…)", ["C"], String.raw`final:\s*([A-D])`)).toEqual({ hard: 1, soft: 1 });
    expect(scoreRegex("Final: D", ["C"], String.raw`final:\s*([A-D])`)).toMatchObject({
      hard: 0,
      failReason: "regex=0: extracted 'D' but expected ['C']",
    });
    expect(scoreRegex("no verdict", ["C"], String.raw`final:\s*([A-D])`)).toMatchObject({
      hard: 0,
      failReason: expect.stringContaining("does not match"),
    });
  });
});
