/**
 * Inline (unified) rows from the side-by-side model: unchanged lines once, and each changed block as its
 * removed lines followed by its added lines, word highlights kept. Folds stay folds.
 */
import type { DiffRow, LineRow, Segment } from "./diff-model";

export interface InlineLine {
  type: "line";
  kind: "context" | "removed" | "added";
  oldNo: number | null;
  newNo: number | null;
  text: string;
  segments?: Segment[];
}
export interface InlineFold {
  type: "fold";
  id: number;
  rows: LineRow[];
}
export type InlineRow = InlineLine | InlineFold;

const contextLine = (r: LineRow): InlineLine => ({
  type: "line",
  kind: "context",
  oldNo: r.left.lineNo,
  newNo: r.right.lineNo,
  text: r.left.text,
});

export function toInline(rows: readonly DiffRow[]): InlineRow[] {
  const out: InlineRow[] = [];
  let removed: InlineLine[] = [];
  let added: InlineLine[] = [];
  const flush = () => {
    out.push(...removed, ...added);
    removed = [];
    added = [];
  };
  for (const row of rows) {
    if (row.type === "fold" || row.left.kind === "context") {
      flush();
      out.push(row.type === "fold" ? row : contextLine(row));
      continue;
    }
    if (row.left.kind === "removed")
      removed.push({
        type: "line",
        kind: "removed",
        oldNo: row.left.lineNo,
        newNo: null,
        text: row.left.text,
        segments: row.left.segments,
      });
    if (row.right.kind === "added")
      added.push({
        type: "line",
        kind: "added",
        oldNo: null,
        newNo: row.right.lineNo,
        text: row.right.text,
        segments: row.right.segments,
      });
  }
  flush();
  return out;
}

/** A fold opened in place: its unchanged lines. */
export function unfold(fold: InlineFold): InlineLine[] {
  return fold.rows.map(contextLine);
}
