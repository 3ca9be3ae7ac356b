import { describe, expect, it } from "vitest";
import { extractJson, extractJsonArray } from "./json-extract";

const fence = (body: string, tag = "json"): string => `\`\`\`${tag}\n${body}\n\`\`\``;

describe("extractJson", () => {
  it("prefers a parseable ```json fence over a bare object", () => {
    expect(extractJson(`{"b": 2}\n${fence('{"a": 1}')}\n{"c": 3}`)).toEqual({ a: 1 });
  });

  it("returns whatever JSON value the fence holds", () => {
    expect(extractJson(fence("[1, 2]"))).toEqual([1, 2]);
    expect(extractJson("```json```")).toBeNull();
  });

  it("only recognises the lower-case json tag", () => {
    // With an upper-case tag the fence is ignored; the greedy span still finds the object.
    expect(extractJson(fence('{"a": 1}', "JSON"))).toEqual({ a: 1 });
    expect(extractJsonArray(`${fence("[1]", "JSON")} and [2]`)).toBeNull();
  });

  it("falls back to the bare object when the fence is broken", () => {
    expect(extractJson(`${fence("not json at all")}\nAnswer: {"b": 2}`)).toEqual({ b: 2 });
  });

  it("takes the greedy first-{ to last-} span when it parses", () => {
    expect(extractJson('Result:\n{"edits": [{"op": "append"}], "n": {"x": 1}}\nDone.')).toEqual({
      edits: [{ op: "append" }],
      n: { x: 1 },
    });
  });

  it("ignores braces inside quoted prose when choosing the repair candidate", () => {
    const text = 'The user said "use {curly} braces" and then {"a": 1,}';
    expect(extractJson(text)).toEqual({ a: 1 });
  });

  it("returns null for two malformed objects instead of guessing", () => {
    expect(extractJson('first {"a": 1,} then {"b": 2,}')).toBeNull();
  });

  it("rejects brace prose such as {op: delete}", () => {
    expect(extractJson("Use {op: delete} to remove the rule.")).toBeNull();
    expect(extractJson("{ 'a': 1, }")).toBeNull();
  });

  it("repairs a trailing comma", () => {
    expect(extractJson('Here you go: {"a": 1, "b": [1, 2,],}')).toEqual({ a: 1, b: [1, 2] });
  });

  it("uses the whole fenced content as the repair candidate when it holds one object", () => {
    // The text as a whole holds two objects, so only the fence makes this repairable.
    expect(extractJson(`${fence('{"a": 1,}')}\nalso {"b": 2,}`)).toEqual({ a: 1 });
  });

  it("stops the object scan at an unterminated final object", () => {
    expect(extractJson('{"a": 1,} and then {"b": ')).toEqual({ a: 1 });
  });

  it("returns null when repair yields an empty object or fails", () => {
    expect(extractJson("{ }}")).toBeNull();
    expect(extractJson('{"a": 1} {')).toEqual({ a: 1 });
    expect(extractJson('{"a": 1 "b"')).toBeNull();
  });

  it("returns null for text without JSON and never throws on odd input", () => {
    expect(extractJson("no json here")).toBeNull();
    expect(extractJson("")).toBeNull();
    expect(extractJson(undefined as unknown as string)).toBeNull();
  });
});

describe("extractJsonArray", () => {
  it("returns a fenced array", () => {
    expect(extractJsonArray(`Ranking:\n${fence("[2, 0, 1]")}\n[9]`)).toEqual([2, 0, 1]);
  });

  it("treats a fence that parses to a non-list as final: null", () => {
    expect(extractJsonArray(`${fence('{"ids": [1]}')}\n[2]`)).toBeNull();
  });

  it("falls back to the scan when the fence does not parse", () => {
    expect(extractJsonArray(`${fence("nope")}\nfinal: [3]`)).toEqual([3]);
    expect(extractJsonArray("```json\nnot json at all\n```\nvalues: [42]")).toEqual([42]);
    // As in the original, an unterminated "[" ends the scan: its span swallows the later array.
    expect(extractJsonArray(`${fence("[1, 2,")}\nfinal: [3]`)).toBeNull();
    expect(extractJsonArray("[1, 2, ")).toBeNull();
  });

  it("ignores brackets and braces inside double-quoted strings (original's cases)", () => {
    expect(extractJsonArray('label is "set it to [x]" done')).toBeNull();
    expect(extractJsonArray('the note "[9]" then the answer [1, 2]')).toEqual([1, 2]);
    expect(extractJsonArray('["a ] b", "c [ d"]')).toEqual(["a ] b", "c [ d"]);
    expect(extractJsonArray('["say \\"]\\" please"] and prose')).toEqual(['say "]" please']);
    expect(extractJsonArray('prose "{" then [1]')).toEqual([1]);
    expect(extractJsonArray('{"k": "}"} [7]')).toEqual([7]);
  });

  it("ports the original's array cases", () => {
    expect(extractJsonArray('```json\n["a", "b", "c"]\n```')).toEqual(["a", "b", "c"]);
    expect(extractJsonArray('```json\n["from_fence"]\n```\nalso ["from_bare"]')).toEqual(["from_fence"]);
    expect(extractJsonArray("```json\n[[1, 2], [3, 4]]\n```")).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(extractJsonArray("")).toBeNull();
    expect(extractJsonArray('[{"x": 1}, {"x": 2}]')).toEqual([{ x: 1 }, { x: 2 }]);
    expect(extractJsonArray('{"this is an object": true}')).toBeNull();
    expect(extractJsonArray("Use [not JSON] as prose. Final answer: [1, 2, 3]")).toEqual([1, 2, 3]);
    expect(extractJsonArray("First candidate [1], second candidate [2]")).toBeNull();
    expect(extractJsonArray("Explanation uses {placeholder, final answer [1, 2]")).toEqual([1, 2]);
    expect(extractJsonArray(`${"{".repeat(1000)} final answer [1, 2]`)).toEqual([1, 2]);
  });

  it("returns the single top-level array", () => {
    expect(extractJsonArray("The order is [2, 0, 1].")).toEqual([2, 0, 1]);
    expect(extractJsonArray("nested: [[1], [2]]")).toEqual([[1], [2]]);
    expect(extractJsonArray("[]")).toEqual([]);
  });

  it("returns null for zero or several parseable arrays", () => {
    expect(extractJsonArray("no arrays")).toBeNull();
    expect(extractJsonArray("[1] and [2]")).toBeNull();
  });

  it("does not count arrays inside balanced objects", () => {
    expect(extractJsonArray('{"ids": [9, 8]} final: [1, 2]')).toEqual([1, 2]);
    expect(extractJsonArray('{"ids": [9, 8]}')).toBeNull();
  });

  it("steps over an unmatched { so it cannot hide a later array", () => {
    expect(extractJsonArray("{ oops, then [3, 4]")).toEqual([3, 4]);
  });

  it("ignores bracket spans that are not JSON lists", () => {
    expect(extractJsonArray("[see above] then [5]")).toEqual([5]);
  });
});

describe("hostile input", () => {
  const MB = 1 << 20;
  const inputs: Array<[string, string]> = [
    ["open braces", "{".repeat(MB)],
    ["open brackets", "[".repeat(MB)],
    ["alternating", "{[".repeat(MB / 2)],
    ["closers first", "}]".repeat(MB / 2)],
    ["fence then whitespace", `\`\`\`json${" ".repeat(MB)}`],
    ["many fences", "```json ".repeat(MB / 8)],
    ["deep nesting in a JSON-like object", `{"a": ${"[".repeat(MB)}}`],
    ["quotes and braces", '"{'.repeat(MB / 2)],
    ["many small malformed objects", '{"a": 1,} '.repeat(MB / 10)],
    ["many small arrays", "[1] ".repeat(MB / 4)],
  ];

  it.each(inputs)("handles a 1 MB %s input without throwing", (_name, text) => {
    expect(() => extractJson(text)).not.toThrow();
    expect(() => extractJsonArray(text)).not.toThrow();
  });
});
