import { describe, expect, it } from "vitest";
import { computeScore, isFailure, isSuccess, pyRoundTo, pyTruthy, round6, skillHash } from "./scoring";

describe("computeScore", () => {
  it("scores an empty list as (0, 0)", () => {
    expect(computeScore([])).toEqual({ hard: 0, soft: 0 });
  });

  it("averages hard and soft, counting missing fields as 0", () => {
    expect(computeScore([{ hard: 1, soft: 0.5 }, { hard: 0 }, { soft: 1 }, {}])).toEqual({
      hard: 0.25,
      soft: 0.375,
    });
  });

  it("accepts plain records and class instances alike, with continuous hard", () => {
    class Row {
      constructor(
        readonly hard: number,
        readonly soft: number,
      ) {}
    }
    const score = computeScore([new Row(0.5, 1), { hard: 1, soft: 0 }]);
    expect(score).toEqual({ hard: 0.75, soft: 0.5 });
  });

  it("converts like Python float(): null is 0, booleans are 0/1, numeric strings parse", () => {
    expect(
      computeScore([
        { hard: null, soft: true },
        { hard: "1.5", soft: false },
      ]),
    ).toEqual({ hard: 0.75, soft: 0.5 });
  });

  it("throws on a score Python's float() would reject", () => {
    expect(() => computeScore([{ hard: "abc" }])).toThrow(/hard must be a number/);
    expect(() => computeScore([{ soft: {} }])).toThrow(/soft must be a number/);
  });
});

describe("skillHash", () => {
  it("is the first 16 lower-case hex chars of SHA-256 over UTF-8", () => {
    // Reference digests from Python's hashlib.
    expect(skillHash("")).toBe("e3b0c44298fc1c14");
    expect(skillHash("abc")).toBe("ba7816bf8f01cfea");
    expect(skillHash("héllo 😀\n")).toBe("37c1ef0f903b8920");
  });

  it("is deterministic and shaped as 16 hex characters", () => {
    const h = skillHash("# Skill\n- MUST verify\n");
    expect(h).toMatch(/^[0-9a-f]{16}$/);
    expect(skillHash("# Skill\n- MUST verify\n")).toBe(h);
    expect(skillHash("# Skill\n- MUST verify")).not.toBe(h);
  });
});

describe("round6", () => {
  // Expected values from CPython round(x, 6); the first rows are exact binary ties.
  it.each([
    [0.0078125, 0.007812],
    [-0.0078125, -0.007812],
    [0.0234375, 0.023438],
    [0.1234565, 0.123456],
    [0.1234575, 0.123457],
    [1 / 3, 0.333333],
    [2 / 3, 0.666667],
    [1.4999995, 1.499999],
    [0.9999995, 1.0],
    [123.4567895, 123.456789],
    [1.5e-6, 2e-6],
    [3.0000005, 3.000001],
    [1e20, 1e20],
  ])("round(%s, 6) == %s", (x, expected) => {
    expect(round6(x)).toBe(expected);
  });

  it("keeps the sign of values that round to zero, like Python", () => {
    expect(Object.is(round6(-1e-7), -0)).toBe(true);
    expect(Object.is(round6(2.5e-7), 0)).toBe(true);
  });

  it("passes non-finite values through", () => {
    expect(round6(Infinity)).toBe(Infinity);
    expect(round6(NaN)).toBeNaN();
  });

  it("rounds exact ties half to even at other precisions too", () => {
    expect(pyRoundTo(2.5, 0)).toBe(2);
    expect(pyRoundTo(3.5, 0)).toBe(4);
    expect(pyRoundTo(0.125, 2)).toBe(0.12);
    expect(pyRoundTo(0.375, 2)).toBe(0.38);
    expect(() => pyRoundTo(1, 21)).toThrow(RangeError);
  });
});

describe("failure / success split", () => {
  it("treats 0 and missing as failure only", () => {
    for (const h of [0, null, undefined, false]) {
      expect(isFailure(h)).toBe(true);
      expect(isSuccess(h)).toBe(false);
    }
  });

  it("counts a fractional hard as success only", () => {
    expect(isFailure(0.5)).toBe(false);
    expect(isSuccess(0.5)).toBe(true);
    expect(isFailure(1)).toBe(false);
    expect(isSuccess(true)).toBe(true);
  });

  it("puts 0 < hard < 1e-9 (and negative hard) in both sets", () => {
    for (const h of [1e-10, -1]) {
      expect(isFailure(h)).toBe(true);
      expect(isSuccess(h)).toBe(true);
    }
    expect(isFailure(1e-9)).toBe(false);
  });

  it("follows Python truthiness for NaN (truthy, and not below 1e-9)", () => {
    expect(pyTruthy(NaN)).toBe(true);
    expect(isFailure(NaN)).toBe(false);
    expect(isSuccess(NaN)).toBe(true);
  });

  it("follows Python truthiness for containers", () => {
    expect(pyTruthy("")).toBe(false);
    expect(pyTruthy([])).toBe(false);
    expect(pyTruthy({})).toBe(false);
    expect(pyTruthy({ a: 1 })).toBe(true);
    expect(pyTruthy("0")).toBe(true);
  });
});
