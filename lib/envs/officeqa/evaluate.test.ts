import { describe, expect, it } from "vitest";
import {
  extractOfficeQaAnswer,
  normaliseOfficeQaAnswer,
  officeQaExactMatch,
  officeQaF1,
  scoreOfficeQa,
} from "./evaluate";

describe("extractOfficeQaAnswer", () => {
  it("takes the FIRST <answer> tag (case-insensitive, across lines)", () => {
    expect(extractOfficeQaAnswer("<answer>62.4</answer> no wait <answer>62400</answer>")).toBe("62.4");
    expect(extractOfficeQaAnswer("so:\n<ANSWER>\n 41,950 \n</Answer>")).toBe("41,950");
  });
  it("falls back to the last non-empty line, then to empty", () => {
    expect(extractOfficeQaAnswer("Reading the table...\n19.6\n\n")).toBe("19.6");
    expect(extractOfficeQaAnswer(" \n ")).toBe("");
  });
});

describe("normaliseOfficeQaAnswer", () => {
  it("removes commas, currency symbols and scale words, keeps . - %", () => {
    expect(normaliseOfficeQaAnswer("$41,950,000")).toBe("41950000");
    expect(normaliseOfficeQaAnswer(" 62.4 Million Dollars ")).toBe("62.4");
    expect(normaliseOfficeQaAnswer("1.2 billions (nominal)")).toBe("1.2");
    expect(normaliseOfficeQaAnswer("-2.8%")).toBe("-2.8%");
    expect(normaliseOfficeQaAnswer("12.5 percent")).toBe("12.5 percent");
    expect(normaliseOfficeQaAnswer("FY2024: $17.50!")).toBe("fy2024 17.50");
  });
  it("deletes scale words only as whole words", () => {
    expect(normaliseOfficeQaAnswer("millionaire dollarstore")).toBe("millionaire dollarstore");
  });
});

describe("exact match and F1", () => {
  it("compares normalised strings against any gold", () => {
    expect(officeQaExactMatch("$62,400", ["62400"])).toBe(1);
    expect(officeQaExactMatch("62.4 million", ["62.4"])).toBe(1);
    expect(officeQaExactMatch("62.4", ["62400"])).toBe(0);
    expect(officeQaExactMatch("-4.7%", ["-4.7%"])).toBe(1);
    expect(officeQaExactMatch("4.7%", ["-4.7%"])).toBe(0);
    expect(officeQaExactMatch("11.8", ["11.8%"])).toBe(0);
    expect(officeQaExactMatch("81", ["81.0", "81"])).toBe(1);
  });
  it("gives partial token F1 for extra unit words", () => {
    expect(officeQaF1("11.8 percent", ["11.8"])).toBeCloseTo(2 / 3, 10);
    expect(officeQaF1("221 positions", ["221"])).toBeCloseTo(2 / 3, 10);
    expect(officeQaF1("62.4", ["62400"])).toBe(0);
    expect(officeQaF1("", ["62400"])).toBe(0);
  });
});

describe("scoreOfficeQa", () => {
  it("scores the first tag and explains a miss", () => {
    expect(scoreOfficeQa("<answer>$19.6 million</answer>", ["19.6"])).toEqual({
      prediction: "$19.6 million",
      hard: 1,
      soft: 1,
    });
    const miss = scoreOfficeQa("<answer>18.9</answer> <answer>19.6</answer>", ["19.6"]);
    expect(miss).toEqual({
      prediction: "18.9",
      hard: 0,
      soft: 0,
      failReason: "EM=0: predicted '18.9' but expected ['19.6']",
    });
  });
  it("scores no answer 0/0 with its own reason", () => {
    expect(scoreOfficeQa("<answer>  </answer>", ["19.6"])).toMatchObject({
      hard: 0,
      soft: 0,
      failReason: expect.stringContaining("no answer"),
    });
    expect(scoreOfficeQa("", ["19.6"])).toMatchObject({ prediction: "", hard: 0, soft: 0 });
    expect(scoreOfficeQa("<answer>$</answer>", ["19.6"])).toMatchObject({ hard: 0, soft: 0 });
  });
  it('scores a prediction and a gold that both normalise to "" as a match (EM = F1 = 1, as the original)', () => {
    expect(officeQaExactMatch("?", ["$"])).toBe(1);
    expect(officeQaF1("n/a?", ["!"])).toBe(0);
    expect(officeQaF1("$", ["()"])).toBe(1);
    expect(scoreOfficeQa("<answer>$</answer>", ["(nominal)"])).toEqual({ prediction: "$", hard: 1, soft: 1 });
  });
});
