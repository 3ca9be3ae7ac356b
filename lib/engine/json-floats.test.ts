import { describe, expect, it } from "vitest";
import { FLOAT_MARK, isFloatMark, listWithFloatMarks, markFloatLexemes } from "./json-floats";

const M = (lexeme: string) => JSON.stringify(FLOAT_MARK + lexeme);

describe("markFloatLexemes", () => {
  it("marks fraction and exponent numbers outside strings only", () => {
    expect(markFloatLexemes('{"a": [1.0, 2, -3.5, 4e2, 10], "s": "v1.0 [2.5]"}')).toBe(
      `{"a": [${M("1.0")}, 2, ${M("-3.5")}, ${M("4e2")}, 10], "s": "v1.0 [2.5]"}`,
    );
    expect(markFloatLexemes('"esc \\" 1.5" 2.5')).toBe(`"esc \\" 1.5" ${M("2.5")}`);
    expect(markFloatLexemes("v1.5 x_2.0")).toBe("v1.5 x_2.0");
  });

  it("recovers the float/int distinction of a list, else keeps the plain parse", () => {
    const text = '{"selected_indices": [1.0, 2]}';
    const marked = listWithFloatMarks(text, "selected_indices", [1, 2]) as unknown[];
    expect(isFloatMark(marked[0])).toBe(true);
    expect(marked[1]).toBe(2);
    expect(listWithFloatMarks(text, "selected_indices", [1])).toEqual([1]);
    expect(listWithFloatMarks(text, "selected_indices", "x")).toBe("x");
  });
});
