import { describe, expect, it } from "vitest";
import { formatToolResults, hasAnswer, parseToolCalls } from "./protocol";

describe("parseToolCalls", () => {
  it("reads every block of a reply, in order", () => {
    const reply = [
      "Let me look.",
      '<tool_call>{"name": "grep", "arguments": {"pattern": "Reserve fund"}}</tool_call>',
      '<tool_call>\n```json\n{"name": "READ", "arguments": "{\\"path\\": \\"a.md\\"}"}\n```\n</tool_call>',
    ].join("\n");
    expect(parseToolCalls(reply)).toEqual([
      { ok: true, call: { name: "grep", arguments: { pattern: "Reserve fund" } } },
      { ok: true, call: { name: "read", arguments: { path: "a.md" } } },
    ]);
  });
  it("reads an unclosed last block and accepts args/parameters spellings", () => {
    expect(parseToolCalls('<tool_call>{"name": "glob", "args": {"pattern": "*"}}')).toEqual([
      { ok: true, call: { name: "glob", arguments: { pattern: "*" } } },
    ]);
    expect(parseToolCalls('<tool_call>{"name": "glob", "parameters": {"pattern": "*"}}</tool_call>')[0]).toMatchObject({
      ok: true,
    });
  });
  it("turns malformed blocks into errors the model can fix", () => {
    const [a, b, c] = parseToolCalls(
      '<tool_call>{name: grep}</tool_call><tool_call>{"arguments": {}}</tool_call><tool_call>{"name": "grep", "arguments": [1]}</tool_call>',
    );
    expect(a).toMatchObject({ ok: false, error: expect.stringContaining("not valid JSON") });
    expect(b).toMatchObject({ ok: false, error: expect.stringContaining('needs a "name"') });
    expect(c).toMatchObject({ ok: false, error: '"arguments" must be a JSON object' });
  });
  it("finds nothing in a plain reply", () => {
    expect(parseToolCalls("I think it is 19.6")).toEqual([]);
  });
});

describe("answers and results", () => {
  it("detects a closed answer tag", () => {
    expect(hasAnswer("x <Answer>19.6</answer>")).toBe(true);
    expect(hasAnswer("<answer>19.6")).toBe(false);
  });
  it("wraps results and announces the last round", () => {
    const text = formatToolResults([{ name: "grep", result: "3: Reserve fund | 19.6", ok: true }], 1, 4);
    expect(text).toBe(
      '<tool_result name="grep" call="1">\n3: Reserve fund | 19.6\n</tool_result>\n\nRound 1 of 4 done. Ask for more or give your final answer inside <answer></answer>.',
    );
    expect(formatToolResults([], 3, 4)).toContain("This is your last round");
  });
});
