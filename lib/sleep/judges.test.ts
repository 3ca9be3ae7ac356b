import { describe, expect, it } from "vitest";
import { exactScore, isRefusal, keywordSoftScore, scoreExact, scoreRuleJudge, validateChecks } from "./judges";

const one = (op: string, arg: unknown, response: string, tools: string[] = []) =>
  scoreRuleJudge({ kind: "rule", checks: [{ op, arg }] }, response, tools).hard;

describe("rule judge: each operator", () => {
  it("section_present: a heading, a bold line or a label mentioning the name", () => {
    expect(one("section_present", "Summary", "## Summary\ntext")).toBe(1);
    expect(one("section_present", "Summary", "**Summary**:\ntext")).toBe(1);
    expect(one("section_present", "Summary", "Summary: done")).toBe(1);
    expect(one("section_present", "Summary", "the summary is in the text")).toBe(0);
  });

  it("section_contains: only ATX headings, case-folded, anything around the name", () => {
    expect(one("section_contains", "risks", "### 2. Known RISKS (draft)\n")).toBe(1);
    expect(one("section_contains", "risks", "    # risks (indented code)\n")).toBe(0);
    expect(one("section_contains", "risks", "**Risks**\n")).toBe(0);
  });

  it("regex: matches, and reports a pattern that does not compile as a problem", () => {
    expect(one("regex", "arXiv:\\d{4}\\.\\d{5}", "see arXiv:1706.03762")).toBe(1);
    expect(one("regex", "^\\d+$", "abc")).toBe(0);
    expect(scoreRuleJudge({ checks: [{ op: "regex", arg: "(" }] }, "x").rationale).toMatch(
      /^failed: regex=\( \[invalid regex/,
    );
  });

  it("max_chars and min_chars count characters, bounds included", () => {
    expect(one("max_chars", 5, "12345")).toBe(1);
    expect(one("max_chars", "4", "12345")).toBe(0);
    expect(one("min_chars", 5, "12345")).toBe(1);
    expect(one("min_chars", 6, "12345")).toBe(0);
  });

  it("contains / not_contains are case-insensitive", () => {
    expect(one("contains", "ReadMe", "update the README")).toBe(1);
    expect(one("contains", "license", "update the README")).toBe(0);
    expect(one("not_contains", "TODO", "all done")).toBe(1);
    expect(one("not_contains", "todo", "a TODO left")).toBe(0);
  });

  it("no_refusal: a short abstention fails (behind markdown markers too); a long explanation passes", () => {
    expect(one("no_refusal", undefined, "Here is the fix.")).toBe(1);
    expect(one("no_refusal", undefined, "I cannot do that.")).toBe(0);
    expect(one("no_refusal", undefined, "> - **I can't** help with that")).toBe(0);
    expect(one("no_refusal", undefined, "")).toBe(0);
    expect(
      one("no_refusal", undefined, `I cannot find the file. ${"I searched src/, lib/ and tests/ for it. ".repeat(20)}`),
    ).toBe(1);
    expect(isRefusal("Sorry, I cannot")).toBe(true);
  });

  it("tool_called: a recorded call, or the TOOL_CALL marker of single-shot replay", () => {
    expect(one("tool_called", "search", "answer", ["Search"])).toBe(1);
    expect(one("tool_called", "search", "TOOL_CALL: search\nanswer")).toBe(1);
    expect(one("tool_called", "search", "I would search for it")).toBe(0);
  });

  it("unknown operators pass; hard needs every check, soft is the share passed, failures are named", () => {
    const r = scoreRuleJudge(
      {
        checks: [
          { op: "contains", arg: "a" },
          { op: "max_chars", arg: 3 },
          { op: "frobnicate", arg: 1 },
        ],
      },
      "abcd",
    );
    expect(r).toEqual({ hard: 0, soft: 2 / 3, rationale: "failed: max_chars=3" });
    expect(scoreRuleJudge({ checks: [] }, "x")).toEqual({ hard: 0, soft: 0, rationale: "no checks" });
    expect(scoreRuleJudge({ checks: [{ op: "contains", arg: "x" }] }, "x").rationale).toBe("all checks passed");
  });
});

describe("validateChecks", () => {
  it("errors: a regex that does not compile, missing arguments, bad or negative bounds, wrong shapes", () => {
    const { errors } = validateChecks({
      checks: [
        { op: "regex", arg: "(" },
        { op: "contains" },
        { op: "max_chars", arg: "ten" },
        { op: "min_chars", arg: -1 },
        { op: "max_chars", arg: true },
        "x",
        { op: 3 },
      ],
    });
    expect(errors).toEqual([
      expect.stringMatching(/^check #0 regex does not compile/),
      "check #1 contains needs a non-empty arg",
      'check #2 max_chars needs an integer arg, got "ten"',
      "check #3 min_chars cannot be negative, got -1",
      "check #4 max_chars needs an integer arg, got true",
      "check #5 is not an object",
      "check #6 op must be a string, got number",
    ]);
    expect(validateChecks([]).errors).toEqual(["judge must be an object, got array"]);
    expect(validateChecks({ checks: "x" }).errors).toEqual(["judge 'checks' must be an array, got string"]);
  });

  it("warnings: unknown op, min_chars=0, a shape-only judge", () => {
    expect(
      validateChecks({
        checks: [
          { op: "frob", arg: 1 },
          { op: "contains", arg: "x" },
        ],
      }).warnings,
    ).toEqual(["check #0 has unknown op 'frob' — it always passes"]);
    expect(
      validateChecks({
        checks: [
          { op: "min_chars", arg: 0 },
          { op: "section_present", arg: "A" },
        ],
      }).warnings,
    ).toEqual([
      "check #0 min_chars=0 always passes",
      "judge is shape-only (formatting checks); it can be satisfied by reformatting rather than by a better answer",
    ]);
    expect(validateChecks({ checks: [{ op: "no_refusal" }, { op: "max_chars", arg: 10 }] })).toEqual({
      errors: [],
      warnings: [],
    });
  });
});

describe("exact judge", () => {
  it("normalises case and punctuation; a reference inside the response counts", () => {
    expect(exactScore("arXiv:1706.03762", "The id is ARXIV 1706 03762.")).toBe(1);
    expect(exactScore("Add login form", "approximately Add login fo")).toBe(0);
    expect(exactScore("", "anything")).toBe(0);
  });

  it("soft is the share of reference words present, never below hard", () => {
    expect(keywordSoftScore("Add unit tests for scheduler", "unit tests")).toBe(2 / 5); // add, unit, tests, for, scheduler
    expect(scoreExact("Update README", "Update README")).toEqual({ hard: 1, soft: 1, rationale: "exact-match=1" });
  });
});
