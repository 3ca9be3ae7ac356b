import { describe, expect, it } from "vitest";
import { buildSideBySide } from "./diff-model";
import { toInline, unfold, type InlineLine } from "./inline-model";

describe("toInline", () => {
  it("puts a changed block's removed lines before its added lines, with word highlights and both numberings", () => {
    const rows = toInline(buildSideBySide("a\nold one\nold two\nz\n", "a\nnew one\nz\nextra\n", 3).rows);
    const lines = rows as InlineLine[];
    expect(lines.map((r) => `${r.kind}:${r.oldNo ?? "-"}:${r.newNo ?? "-"}:${r.text}`)).toEqual([
      "context:1:1:a",
      "removed:2:-:old one",
      "removed:3:-:old two",
      "added:-:2:new one",
      "context:4:3:z",
      "added:-:4:extra",
    ]);
    expect(lines[1]!.segments?.filter((s) => s.changed).map((s) => s.text)).toEqual(["old"]);
    expect(lines[3]!.segments?.filter((s) => s.changed).map((s) => s.text)).toEqual(["new"]);
  });

  it("keeps folds, which open into their unchanged lines", () => {
    const text = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n");
    const rows = toInline(buildSideBySide(text, text.replace("line 19", "last"), 2).rows);
    const fold = rows[0]!;
    expect(fold.type).toBe("fold");
    if (fold.type !== "fold") return;
    expect(unfold(fold).map((l) => l.text)).toEqual(Array.from({ length: 17 }, (_, i) => `line ${i}`));
    expect(rows.filter((r) => r.type === "line" && r.kind !== "context")).toHaveLength(2);
  });
});
