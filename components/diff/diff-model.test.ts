import { describe, expect, it } from "vitest";
import { alignRows, buildSideBySide, type LineRow } from "./diff-model";

const lines = (n: number, prefix = "line") => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join("\n");

describe("alignRows", () => {
  it("pairs a changed line with word-level highlights and keeps line numbers", () => {
    const { rows, added, removed } = alignRows(
      "# Skill\nGive the short answer.\nEnd\n",
      "# Skill\nGive the shortest span.\nEnd\n",
    );
    expect(added).toBe(1);
    expect(removed).toBe(1);
    const row = rows[1]!;
    expect(row.left).toMatchObject({ kind: "removed", lineNo: 2, text: "Give the short answer." });
    expect(row.right).toMatchObject({ kind: "added", lineNo: 2, text: "Give the shortest span." });
    expect(
      row.left.segments
        ?.filter((s) => s.changed)
        .map((s) => s.text)
        .join(""),
    ).toContain("short");
    expect(
      row.right.segments
        ?.filter((s) => !s.changed)
        .map((s) => s.text)
        .join(""),
    ).toContain("Give the ");
  });

  it("puts pure additions on the right with an empty left cell", () => {
    const { rows } = alignRows("a\nb", "a\nb\nc\nd");
    expect(rows.map((r) => [r.left.kind, r.right.kind])).toEqual([
      ["context", "context"],
      ["context", "context"],
      ["empty", "added"],
      ["empty", "added"],
    ]);
    expect(rows[3]!.right.lineNo).toBe(4);
  });

  it("ignores a missing final newline", () => {
    const { added, removed } = alignRows("a\nb", "a\nb\n");
    expect(added + removed).toBe(0);
  });
});

describe("buildSideBySide", () => {
  it("folds unchanged stretches and keeps context around the change", () => {
    const old = lines(40);
    const next = old.replace("line 20", "line twenty");
    const { rows } = buildSideBySide(old, next, 3);
    const kinds = rows.map((r) => (r.type === "fold" ? `fold:${r.rows.length}` : (r as LineRow).left.kind));
    expect(kinds).toEqual([
      "fold:16",
      "context",
      "context",
      "context",
      "removed",
      "context",
      "context",
      "context",
      "fold:17",
    ]);
  });

  it("folds everything when the texts are equal", () => {
    const { rows, added, removed } = buildSideBySide(lines(10), lines(10));
    expect(added + removed).toBe(0);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.type).toBe("fold");
  });
});
