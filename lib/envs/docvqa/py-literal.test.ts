import { describe, expect, it } from "vitest";
import { parsePythonLiteral } from "./py-literal";

describe("parsePythonLiteral", () => {
  it("reads lists, tuples, dicts, numbers and constants", () => {
    expect(parsePythonLiteral(`['a', "b's", 3, -1.5, None, True, False]`)).toEqual([
      "a",
      "b's",
      3,
      -1.5,
      null,
      true,
      false,
    ]);
    expect(parsePythonLiteral(`{'text': 'x', 'n': (1, 2,)}`)).toEqual({ text: "x", n: [1, 2] });
    expect(parsePythonLiteral("[]")).toEqual([]);
    expect(parsePythonLiteral("('a')")).toBe("a");
    expect(parsePythonLiteral("('a',)")).toEqual(["a"]);
  });
  it("handles escapes, prefixes, triple quotes and implicit concatenation", () => {
    expect(parsePythonLiteral(String.raw`'it\'s \\ \n \x41\u00e9\U0001F600'`)).toBe("it's \\ \n Aé😀");
    expect(parsePythonLiteral(String.raw`r'C:\docs'`)).toBe("C:\\docs");
    expect(parsePythonLiteral(`'''a'b'''`)).toBe("a'b");
    expect(parsePythonLiteral(`['ab' "cd"]`)).toEqual(["abcd"]);
  });
  it("returns undefined for anything that is not one complete literal", () => {
    for (const text of ["[draft] notes", "['a'", "['a' 'b", "[a]", "'x' y", "", "{'a' 1}"]) {
      expect(parsePythonLiteral(text), text).toBeUndefined();
    }
  });
});
