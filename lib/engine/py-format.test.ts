import { describe, expect, it } from "vitest";
import {
  pyCasefoldKey,
  pyCollapseWhitespace,
  pyFloatStr,
  pyNumStr,
  pyPrefix,
  pyRepr,
  pyRstrip,
  pyStrip,
} from "./py-format";

// Expected values were produced once with CPython 3.11 (`repr(s)` / `str(x)`) and pasted here.
const REPR_VECTORS: Array<[string, string]> = [
  ["", "''"],
  ["abc", "'abc'"],
  ["it's", '"it\'s"'],
  ['say "hi"', "'say \"hi\"'"],
  ["both ' and \"", "'both \\' and \"'"],
  ["back\\slash", "'back\\\\slash'"],
  ["tab\there", "'tab\\there'"],
  ["nl\nx\r", "'nl\\nx\\r'"],
  ["\u0000\u0007\u001b\u007f", "'\\x00\\x07\\x1b\\x7f'"],
  ["caf\u00e9", "'caf\u00e9'"],
  ["\u00a0nbsp", "'\\xa0nbsp'"],
  ["\u200bzw", "'\\u200bzw'"],
  ["\u2028ls", "'\\u2028ls'"],
  ["\ud83d\ude00", "'\ud83d\ude00'"],
  ["\udb40\udc01tag", "'\\U000e0001tag'"],
  ["\ud800lone", "'\\ud800lone'"],
  ["\u3000ideo", "'\\u3000ideo'"],
  ["\u0085nel", "'\\x85nel'"],
  ["\u00ad soft", "'\\xad soft'"],
  ["\u65e5\u672c\u8a9e", "'\u65e5\u672c\u8a9e'"],
  ["'\"", "'\\'\"'"],
  ["\u009f", "'\\x9f'"],
  ["\ufeffbom", "'\\ufeffbom'"],
  ["\udbff\udfff", "'\\U0010ffff'"],
];

const FLOAT_VECTORS: Array<[number, string]> = [
  [0.0, "0.0"],
  [-0.0, "-0.0"],
  [1.0, "1.0"],
  [-1.0, "-1.0"],
  [0.5, "0.5"],
  [0.1, "0.1"],
  [1e-5, "1e-05"],
  [0.0001, "0.0001"],
  [0.0001234, "0.0001234"],
  [1e16, "1e+16"],
  [1e15, "1000000000000000.0"],
  [123456789012345680, "1.2345678901234568e+17"],
  [1.5e300, "1.5e+300"],
  [5e-324, "5e-324"],
  [2.2250738585072014e-308, "2.2250738585072014e-308"],
  [1 / 3, "0.3333333333333333"],
  [2 / 3, "0.6666666666666666"],
  [100.0, "100.0"],
  [1e22, "1e+22"],
  [9999999999999998.0, "9999999999999998.0"],
  [0.1 + 0.2, "0.30000000000000004"],
  [-2.5e-7, "-2.5e-07"],
  [Number.MAX_VALUE, "1.7976931348623157e+308"],
  [12345.678, "12345.678"],
  [0.82, "0.82"],
  [0.7000000000000001, "0.7000000000000001"],
  [NaN, "nan"],
  [Infinity, "inf"],
  [-Infinity, "-inf"],
];

describe("pyRepr", () => {
  it.each(REPR_VECTORS)("matches CPython for %j", (input, expected) => {
    expect(pyRepr(input)).toBe(expected);
  });
});

describe("pyFloatStr", () => {
  it.each(FLOAT_VECTORS)("str(%s) matches CPython", (x, expected) => {
    expect(pyFloatStr(x)).toBe(expected);
  });
});

describe("pyNumStr", () => {
  it("prints ints without a fraction and floats like Python", () => {
    expect(pyNumStr(3, true)).toBe("3");
    expect(pyNumStr(3, false)).toBe("3.0");
    expect(pyNumStr(1e21, true)).toBe("1000000000000000000000");
    // An int flag on a non-integral value cannot be honoured; fall back to float printing.
    expect(pyNumStr(2.5, true)).toBe("2.5");
  });
});

describe("Python whitespace helpers", () => {
  it("strips the characters str.strip() strips, not the ones String.trim() strips", () => {
    // \x1c and \x85 are Python whitespace but not JS whitespace; \ufeff is the reverse.
    expect(pyStrip("\x1c\x85 a b \t\n")).toBe("a b");
    expect(pyStrip("\ufeffa\ufeff")).toBe("\ufeffa\ufeff");
    expect(pyRstrip("  a  \n")).toBe("  a");
    expect(pyRstrip("")).toBe("");
  });

  it("collapses whitespace runs like ' '.join(s.split())", () => {
    expect(pyCollapseWhitespace("  a\t\n b\u3000c  ")).toBe("a b c");
    expect(pyCollapseWhitespace(" \n ")).toBe("");
  });

  it("keeps long whitespace-heavy text linear", () => {
    const text = `${"a \n".repeat(200_000)}b`;
    expect(pyRstrip(text)).toBe(text);
  });
});

describe("pyCasefoldKey", () => {
  it("folds the same pairs together as str.casefold()", () => {
    // CPython: "Straße".casefold() == "STRASSE".casefold(); the final and medial sigma fold together.
    expect(pyCasefoldKey("Straße")).toBe(pyCasefoldKey("STRASSE"));
    expect(pyCasefoldKey("ς")).toBe(pyCasefoldKey("σ"));
    expect(pyCasefoldKey("ſ")).toBe(pyCasefoldKey("s"));
    expect(pyCasefoldKey("ﬀ")).toBe(pyCasefoldKey("FF"));
    expect(pyCasefoldKey("Note")).not.toBe(pyCasefoldKey("Notes"));
  });
});

describe("pyPrefix", () => {
  it("counts code points like Python slicing and never splits a pair", () => {
    expect(pyPrefix("abc", 2)).toBe("ab");
    expect(pyPrefix("😀😀x", 2)).toBe("😀😀");
    expect(pyPrefix("a😀", 1)).toBe("a");
    expect(pyPrefix("short", 200)).toBe("short");
  });
});
