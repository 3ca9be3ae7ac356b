import { describe, expect, it } from "vitest";
import { applyPatchWithReport, summarizeApplyReport } from "./patch";
import {
  APPENDIX_END,
  APPENDIX_START,
  SLOW_UPDATE_END,
  SLOW_UPDATE_START,
  appendToAppendix,
  injectEmptyAppendix,
  injectEmptySlowUpdate,
} from "./protected";
import type { EditApplyStatus } from "./types";

const BODY = "# Skill\n\n## Rules\n- Rule one.\n- Rule two.\n";
const GUARDED = appendToAppendix(
  injectEmptySlowUpdate(`${BODY}\n`).replace(`${SLOW_UPDATE_START}\n`, `${SLOW_UPDATE_START}\nSlow guidance.\n`),
  ["Lapse note."],
);

function applyOne(doc: string, edit: unknown): { skill: string; status: EditApplyStatus } {
  const { skill, report } = applyPatchWithReport(doc, [edit]);
  return { skill, status: report[0]!.status };
}

describe("applyPatchWithReport statuses", () => {
  it("applied_append", () => {
    const r = applyOne(`${BODY}\n\n`, { op: "append", content: "  - Rule three.\n" });
    expect(r).toEqual({ skill: `${BODY.trimEnd()}\n\n- Rule three.\n`, status: "applied_append" });
  });

  it("applied_append_before_protected_region", () => {
    const r = applyOne(GUARDED, { op: "append", content: "- Rule three." });
    expect(r.status).toBe("applied_append_before_protected_region");
    const start = GUARDED.indexOf(SLOW_UPDATE_START);
    expect(r.skill).toBe(`${GUARDED.slice(0, start).trimEnd()}\n\n- Rule three.\n\n${GUARDED.slice(start)}`);
  });

  it("applied_insert_after: after the line holding the end of the first match", () => {
    const r = applyOne(BODY, { op: "insert_after", target: "Rule one", content: "- Rule 1b." });
    expect(r).toEqual({
      skill: "# Skill\n\n## Rules\n- Rule one.\n\n- Rule 1b.\n- Rule two.\n",
      status: "applied_insert_after",
    });
  });

  it("applied_insert_after at the document end when the match has no newline after it", () => {
    const r = applyOne("a\nlast", { op: "insert_after", target: "last", content: "x" });
    expect(r).toEqual({ skill: "a\nlast\nx\n", status: "applied_insert_after" });
  });

  it("applied_insert_after_fallback_append", () => {
    expect(applyOne(BODY, { op: "insert_after", target: "missing", content: "x" })).toEqual({
      skill: `${BODY.trimEnd()}\n\nx\n`,
      status: "applied_insert_after_fallback_append",
    });
    expect(applyOne(BODY, { op: "insert_after", content: "x" }).status).toBe("applied_insert_after_fallback_append");
  });

  it("applied_insert_after_fallback_before_protected_region", () => {
    const r = applyOne(GUARDED, { op: "insert_after", target: "missing", content: "x" });
    expect(r.status).toBe("applied_insert_after_fallback_before_protected_region");
    expect(r.skill.indexOf("\n\nx\n\n")).toBeLessThan(r.skill.indexOf(SLOW_UPDATE_START));
  });

  it("applied_replace: first occurrence only, and the content is inserted literally", () => {
    const r = applyOne("a b a", { op: "replace", target: "a", content: "$& $1" });
    expect(r).toEqual({ skill: "$& $1 b a", status: "applied_replace" });
  });

  it("applied_replace with empty content deletes the target", () => {
    expect(applyOne("keep drop keep", { op: "replace", target: "drop ", content: "" })).toEqual({
      skill: "keep keep",
      status: "applied_replace",
    });
  });

  it("applied_delete: first occurrence, blank lines left alone", () => {
    expect(applyOne("x\n\n- gone\n\ny - gone", { op: "delete", target: "- gone" })).toEqual({
      skill: "x\n\n\n\ny - gone",
      status: "applied_delete",
    });
  });

  it("skipped_protected_region for a target first found in the appendix", () => {
    const r = applyOne(GUARDED, { op: "replace", target: "Lapse note.", content: "hijack" });
    expect(r).toEqual({ skill: GUARDED, status: "skipped_protected_region" });
    expect(applyOne(GUARDED, { op: "delete", target: "Slow guidance." }).status).toBe("skipped_protected_region");
    expect(applyOne(GUARDED, { op: "insert_after", target: APPENDIX_START, content: "x" }).status).toBe(
      "skipped_protected_region",
    );
  });

  it.each([
    ["replace", "skipped_replace_missing_target"],
    ["delete", "skipped_delete_missing_target"],
  ] as const)("%s without a target → %s", (op, status) => {
    expect(applyOne(BODY, { op, target: "", content: "x" })).toEqual({ skill: BODY, status });
  });

  it.each([
    ["replace", "skipped_replace_target_not_found"],
    ["delete", "skipped_delete_target_not_found"],
  ] as const)("%s with an absent target → %s", (op, status) => {
    expect(applyOne(BODY, { op, target: "Rule nine", content: "x" })).toEqual({ skill: BODY, status });
  });

  it("skipped_unknown_op, including a missing or non-string op", () => {
    expect(applyOne(BODY, { op: "rewrite", target: "Rule one", content: "x" })).toEqual({
      skill: BODY,
      status: "skipped_unknown_op",
    });
    expect(applyOne(BODY, { content: "x" }).status).toBe("skipped_unknown_op");
    const { report } = applyPatchWithReport(BODY, [{ op: 3, content: "x" }]);
    expect(report[0]).toMatchObject({ op: "3", status: "skipped_unknown_op" });
  });

  it("error rows for a non-object edit or a non-string field, document unchanged", () => {
    const { skill, report } = applyPatchWithReport(BODY, [
      "append this",
      null,
      ["op", "append"],
      { op: "append", content: 42 },
      { op: "delete", target: { text: "Rule one" } },
    ]);
    expect(skill).toBe(BODY);
    expect(report.map((r) => r.status)).toEqual(["error", "error", "error", "error", "error"]);
    expect(report[3]).toEqual({
      index: 4,
      op: "",
      target: "",
      content_preview: "",
      status: "error",
      error: 'edit field "content" must be a string, got number',
    });
  });

  it("error rows for a JSON null content or target, whatever the op (as the original)", () => {
    const { skill, report } = applyPatchWithReport(BODY, [
      { op: "append", content: null },
      { op: "append", target: null, content: "- New rule." },
      { op: "replace", target: "Rule one.", content: null },
      { op: "delete", target: null },
    ]);
    expect(skill).toBe(BODY);
    expect(report.map((r) => r.status)).toEqual(["error", "error", "error", "error"]);
    expect(report[0]!.error).toBe('edit field "content" must be a string, got null');
    expect(report[1]!.error).toBe('edit field "target" must be a string, got null');
  });
});

describe("applyPatchWithReport details", () => {
  it("applies edits sequentially so later edits see earlier changes", () => {
    const { skill, report } = applyPatchWithReport(BODY, [
      { op: "replace", target: "Rule one.", content: "Rule uno." },
      { op: "insert_after", target: "Rule uno.", content: "- Rule 1b." },
      { op: "delete", target: "Rule one." },
      { op: "delete", target: "- Rule two.\n" },
    ]);
    expect(report.map((r) => [r.index, r.status])).toEqual([
      [1, "applied_replace"],
      [2, "applied_insert_after"],
      [3, "skipped_delete_target_not_found"],
      [4, "applied_delete"],
    ]);
    expect(skill).toBe("# Skill\n\n## Rules\n- Rule uno.\n\n- Rule 1b.\n");
  });

  it("trims content and strips all four markers; the target is not trimmed", () => {
    const dirty = `  ${SLOW_UPDATE_START}new ${APPENDIX_END}rule${SLOW_UPDATE_END}${APPENDIX_START}  `;
    expect(applyOne("x", { op: "append", content: dirty }).skill).toBe("x\n\nnew rule\n");
    expect(applyOne("a b", { op: "delete", target: " b " }).status).toBe("skipped_delete_target_not_found");
  });

  it("reports target and content previews cut to 200 characters", () => {
    const long = "y".repeat(250);
    const { report } = applyPatchWithReport(`${long}\n`, [{ op: "insert_after", target: long, content: long }]);
    expect(report[0]).toEqual({
      index: 1,
      op: "insert_after",
      target: "y".repeat(200),
      content_preview: "y".repeat(200),
      status: "applied_insert_after",
    });
  });

  it("only the first occurrence of the target decides protection", () => {
    // The text appears in the body too, but its first occurrence is inside the slow-update field.
    const doc = `Intro\n${SLOW_UPDATE_START}\nshared line\n${SLOW_UPDATE_END}\nshared line\n`;
    expect(applyOne(doc, { op: "delete", target: "shared line" }).status).toBe("skipped_protected_region");
    const bodyFirst = `shared line\n${SLOW_UPDATE_START}\nshared line\n${SLOW_UPDATE_END}\n`;
    expect(applyOne(bodyFirst, { op: "delete", target: "shared line" })).toEqual({
      skill: `\n${SLOW_UPDATE_START}\nshared line\n${SLOW_UPDATE_END}\n`,
      status: "applied_delete",
    });
  });

  it("lands an append above both protected regions, whichever comes first", () => {
    const appendixFirst = injectEmptySlowUpdate(injectEmptyAppendix(BODY));
    for (const doc of [GUARDED, appendixFirst]) {
      const out = applyOne(doc, { op: "append", content: "NEW RULE" }).skill;
      expect(out.indexOf("NEW RULE")).toBeLessThan(out.indexOf(SLOW_UPDATE_START));
      expect(out.indexOf("NEW RULE")).toBeLessThan(out.indexOf(APPENDIX_START));
      expect(out.endsWith(doc.slice(Math.min(doc.indexOf(SLOW_UPDATE_START), doc.indexOf(APPENDIX_START))))).toBe(true);
    }
  });

  it("without protected regions, appends are byte-identical to plain appends", () => {
    const contents = ["first", "  second  ", "third\n\n"];
    let expected = "# Skill\nBody\n\n\n";
    for (const c of contents) expected = `${expected.trimEnd()}\n\n${c.trim()}\n`;
    const { skill } = applyPatchWithReport(
      "# Skill\nBody\n\n\n",
      contents.map((content) => ({ op: "append", content })),
    );
    expect(skill).toBe(expected);
  });

  it("returns the input unchanged for no edits", () => {
    expect(applyPatchWithReport(BODY, [])).toEqual({ skill: BODY, report: [] });
  });
});

describe("summarizeApplyReport", () => {
  it("groups statuses by prefix", () => {
    const { report } = applyPatchWithReport(BODY, [
      { op: "append", content: "a" },
      { op: "insert_after", target: "nope", content: "b" },
      { op: "delete", target: "nope" },
      { op: "bogus" },
      7,
    ]);
    expect(summarizeApplyReport(report)).toEqual({ total: 5, applied: 2, skipped: 2, errors: 1 });
    expect(summarizeApplyReport([])).toEqual({ total: 0, applied: 0, skipped: 0, errors: 0 });
  });
});
