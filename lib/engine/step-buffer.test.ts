import { describe, expect, it } from "vitest";
import { parseAnalystResult } from "./phases/reflect";
import {
  buildBufferEntry,
  extractFailurePatterns,
  formatStepBuffer,
  shortSummary,
  type StepBufferEntry,
} from "./step-buffer";
import type { AnalystResult, Trajectory } from "./types";

function row(id: string, hard: number, failReason?: string): Trajectory {
  return { id, hard, soft: hard, status: "ok", failReason, conversation: [] };
}

const analyst = (summary: unknown[]): AnalystResult => ({
  source_type: "failure",
  patch: { edits: [] },
  failure_summary: summary,
});

describe("extractFailurePatterns", () => {
  const results = [
    row("t1", 0, "EM=0: missing alpha"),
    row("t2", 0, "  timeout : stalled"),
    row("t3", 0, " no colon here "),
    row("t4", 0),
    row("t5", 1, "ignored: passed"),
    row("t6", 0, "EM=0: other"),
    row("t7", 0, ""),
    row("t8", 1e-12, "EM=0: tiny"),
    row("t9", 0.5, "partial: credit"),
  ];

  it("groups failed rows by the trimmed text before the first colon, else the whole reason untrimmed, else 'unknown'", () => {
    // A missing reason is "unknown"; an empty one keeps its own "" group, as in the original.
    expect(extractFailurePatterns(results, [])).toEqual([
      { pattern: "EM=0", count: 3, task_ids: ["t1", "t6", "t8"] },
      { pattern: "timeout", count: 1, task_ids: ["t2"] },
      { pattern: " no colon here ", count: 1, task_ids: ["t3"] },
      { pattern: "unknown", count: 1, task_ids: ["t4"] },
      { pattern: "", count: 1, task_ids: ["t7"] },
    ]);
  });

  it("labels the i-th group with the i-th analyst description, positionally, falling back to the prefix", () => {
    const patterns = extractFailurePatterns(results, [
      analyst([{ failure_type: "rule_missing", count: 2, description: "the skill lacks units" }]),
      analyst([{ failure_type: "format", count: 1, description: "" }]),
    ]);
    expect(patterns.map((p) => p.pattern)).toEqual([
      "rule_missing: the skill lacks units",
      "format",
      " no colon here ",
      "unknown",
      "",
    ]);
    expect(patterns.map((p) => p.task_ids)).toEqual([["t1", "t6", "t8"], ["t2"], ["t3"], ["t4"], ["t7"]]);
  });

  it("ignores malformed summaries", () => {
    const patterns = extractFailurePatterns(
      [row("a", 0, "x: y")],
      [{ source_type: "failure", patch: {}, failure_summary: "not a list" }, analyst(["a string", null, 5])],
    );
    expect(patterns).toEqual([{ pattern: "x", count: 1, task_ids: ["a"] }]);
  });

  it("ignores a malformed analyst answer (2000-deep nesting, a 5000-digit integer) and falls back to the prefix", () => {
    const deep = "[".repeat(2000) + "]".repeat(2000);
    const huge = "9".repeat(5000);
    const texts = [
      deep,
      huge,
      `{"batch_size": 1, "failure_summary": ${deep}, "patch": {"reasoning": "r", "edits": []}}`,
      `{"batch_size": 1, "failure_summary": [{"failure_type": "overflow", "count": ${huge}}]}`,
      `{"failure_summary": [${"{".repeat(2000)}`,
    ];
    const parsed = texts
      .map((t) => parseAnalystResult(t, { kind: "failure", mode: "patch", budget: 4, skillAware: false }))
      .filter((r): r is AnalystResult => r !== null);
    const entry = buildBufferEntry({
      step: 1,
      action: "accept",
      results: [row("task-1", 0, "timeout: command stalled")],
      failureResults: parsed,
      ranked: [],
      mode: "patch",
      scoreBefore: 0,
      scoreAfter: 0,
    });
    expect(entry.failure_patterns).toEqual([{ pattern: "timeout", count: 1, task_ids: ["task-1"] }]);
  });
});

describe("shortSummary", () => {
  it("keeps op (default '?'), content and target in patch mode", () => {
    expect(shortSummary({ op: "replace", target: "a", content: "b", support_count: 3 }, "patch")).toEqual({
      op: "replace",
      content: "b",
      target: "a",
    });
    expect(shortSummary({ content: "c" }, "patch")).toEqual({ op: "?", content: "c", target: "" });
  });

  it("keeps type, title and instruction of a suggestion", () => {
    expect(
      shortSummary({ type: "clarify", title: "T", instruction: "I", motivation: "M" }, "rewrite_from_suggestions"),
    ).toEqual({ type: "clarify", title: "T", instruction: "I" });
  });

  it("keeps title, change summary strings and source type of a candidate", () => {
    expect(
      shortSummary(
        { title: "T", change_summary: ["a", 2], source_type: "mixed", new_skill: "# long" },
        "full_rewrite_minibatch",
      ),
    ).toEqual({
      title: "T",
      change_summary: ["a", "2"],
      source_type: "mixed",
    });
  });
});

describe("buildBufferEntry", () => {
  const results = [row("a", 0, "EM=0: x"), row("b", 1), row("c", 0, "EM=0: y"), row("d", 1)];
  const base = { step: 3, results, failureResults: [], mode: "patch" as const, scoreBefore: 0.5, scoreAfter: 0.25 };

  it("records counts and patterns; a reject with ranked items adds the scores and the rejected edits", () => {
    const entry = buildBufferEntry({
      ...base,
      action: "reject",
      ranked: [{ op: "append", content: "- x", support_count: 2 }],
    });
    expect(entry).toEqual({
      step: 3,
      action: "reject",
      n_total: 4,
      n_fail: 2,
      failure_patterns: [{ pattern: "EM=0", count: 2, task_ids: ["a", "c"] }],
      score_before: 0.5,
      score_after: 0.25,
      rejected_edits: [{ op: "append", content: "- x", target: "" }],
    });
  });

  it("adds no reject fields to other actions or to a reject without ranked items", () => {
    for (const [action, ranked] of [
      ["accept", [{ op: "append", content: "x" }]],
      ["accept_new_best", [{ op: "append", content: "x" }]],
      ["force_accept", [{ op: "append", content: "x" }]],
      ["reject", []],
    ] as const) {
      const entry = buildBufferEntry({ ...base, action, ranked: [...ranked] });
      expect(entry).not.toHaveProperty("score_before");
      expect(entry).not.toHaveProperty("rejected_edits");
    }
  });

  it("counts n_total as 1 when there are no results", () => {
    const entry = buildBufferEntry({ ...base, results: [], action: "accept", ranked: [] });
    expect(entry).toMatchObject({ n_total: 1, n_fail: 0, failure_patterns: [] });
  });

  it("summarises rejected items per mode", () => {
    const r = buildBufferEntry({
      ...base,
      action: "reject",
      mode: "rewrite_from_suggestions",
      ranked: [{ type: "add_rule", title: "T", instruction: "I" }],
    });
    expect(r.rejected_edits).toEqual([{ type: "add_rule", title: "T", instruction: "I" }]);
    const f = buildBufferEntry({
      ...base,
      action: "reject",
      mode: "full_rewrite_minibatch",
      ranked: [{ title: "C", change_summary: ["x"], source_type: "failure", new_skill: "# S" }],
    });
    expect(f.rejected_edits).toEqual([{ title: "C", change_summary: ["x"], source_type: "failure" }]);
  });
});

describe("formatStepBuffer", () => {
  it("is empty for an empty buffer", () => {
    expect(formatStepBuffer([])).toBe("");
  });

  it("lists each step with its action, failure count, patterns and rejected edits", () => {
    const entries: StepBufferEntry[] = [
      {
        step: 1,
        action: "accept_new_best",
        n_total: 4,
        n_fail: 3,
        failure_patterns: [{ pattern: "rule_missing: units", count: 3, task_ids: ["t1", "t2", "t3"] }],
      },
      {
        step: 2,
        action: "reject",
        n_total: 4,
        n_fail: 1,
        failure_patterns: [{ pattern: "EM=0", count: 1, task_ids: ["t9"] }],
        score_before: 0.5,
        score_after: 1,
        rejected_edits: [
          { op: "replace", content: "- new", target: "- old" },
          { op: "append", content: "- more", target: "" },
        ],
      },
      {
        step: 3,
        action: "reject",
        n_total: 2,
        n_fail: 2,
        failure_patterns: [],
        score_before: 0.25,
        score_after: 0,
        rejected_edits: [{ type: "clarify", title: "Short", instruction: "Answer briefly" }],
      },
    ];
    const text = formatStepBuffer(entries);
    const lines = text.split("\n");
    expect(lines[0]!.length).toBeGreaterThan(0);
    expect(text).toContain("### Step 1: ACCEPT_NEW_BEST (3/4 failed)");
    expect(text).toContain('"rule_missing: units" ×3');
    expect(text).toContain("t1, t2, t3");
    expect(text.indexOf("### Step 1")).toBeLessThan(text.indexOf("### Step 2"));
    expect(text).toContain("### Step 2: REJECT (1/4 failed)");
    // Python float printing of the scores.
    expect(text).toMatch(/0\.5 → 1\.0/);
    expect(text).toContain('1. [replace] target="- old" → "- new"');
    expect(text).toContain('2. [append] "- more"');
    expect(text).toContain("### Step 3: REJECT (2/2 failed)");
    expect(text).toMatch(/0\.25 → 0\.0/);
    expect(text).toContain('1. [clarify] "Short" → "Answer briefly"');
  });
});

describe("errors and timeouts stay out of the digest (deliberate deviation)", () => {
  it("counts and groups only answered items", () => {
    const rows = [
      { id: "a", hard: 0, soft: 0, status: "ok" as const, failReason: "EM=0: wrong", conversation: [] },
      { id: "b", hard: 0, soft: 0, status: "error" as const, failReason: "error: 500", conversation: [] },
      { id: "c", hard: 0, soft: 0, status: "timeout" as const, failReason: "timeout: no answer", conversation: [] },
      { id: "d", hard: 1, soft: 1, status: "ok" as const, conversation: [] },
    ];
    const e = buildBufferEntry({
      step: 1,
      action: "accept",
      results: rows,
      failureResults: [],
      ranked: [],
      mode: "patch",
      scoreBefore: 0,
      scoreAfter: 0,
    });
    expect(e.n_total).toBe(2);
    expect(e.n_fail).toBe(1);
    expect(e.failure_patterns).toEqual([{ pattern: "EM=0", count: 1, task_ids: ["a"] }]);
  });
});
