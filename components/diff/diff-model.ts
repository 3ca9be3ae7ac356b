/**
 * Side-by-side diff rows from two skill texts (jsdiff `diffLines`): removed lines on the left, added lines
 * on the right, a changed block paired line by line with word-level highlights (`diffWordsWithSpace`),
 * and long unchanged stretches folded into expandable blocks with `context` lines kept around changes.
 */
import { diffLines, diffWordsWithSpace } from "diff";

export type CellKind = "context" | "removed" | "added" | "empty";
export interface Segment {
  text: string;
  changed: boolean;
}
export interface DiffCell {
  kind: CellKind;
  lineNo: number | null;
  text: string;
  /** Word-level split when the line is paired with a changed counterpart. */
  segments?: Segment[];
}
export interface LineRow {
  type: "line";
  left: DiffCell;
  right: DiffCell;
}
export interface FoldRow {
  type: "fold";
  id: number;
  rows: LineRow[];
}
export type DiffRow = LineRow | FoldRow;

export interface SideBySide {
  rows: DiffRow[];
  added: number;
  removed: number;
}

/** Word diffs of very long lines are skipped (cost grows quadratically; the line stays highlighted whole). */
const MAX_WORD_DIFF_CHARS = 2_000;
const EMPTY: DiffCell = { kind: "empty", lineNo: null, text: "" };

function splitLines(value: string): string[] {
  const lines = value.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

function pairSegments(oldLine: string, newLine: string): { left?: Segment[]; right?: Segment[] } {
  if (oldLine.length + newLine.length > MAX_WORD_DIFF_CHARS) return {};
  const parts = diffWordsWithSpace(oldLine, newLine);
  return {
    left: parts.filter((p) => !p.added).map((p) => ({ text: p.value, changed: p.removed })),
    right: parts.filter((p) => !p.removed).map((p) => ({ text: p.value, changed: p.added })),
  };
}

/** Aligned rows before folding. */
export function alignRows(oldText: string, newText: string): { rows: LineRow[]; added: number; removed: number } {
  const norm = (s: string) => (s === "" || s.endsWith("\n") ? s : `${s}\n`);
  const changes = diffLines(norm(oldText), norm(newText));
  const rows: LineRow[] = [];
  let l = 1;
  let r = 1;
  let added = 0;
  let removed = 0;
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    if (!c.added && !c.removed) {
      for (const text of splitLines(c.value)) {
        rows.push({
          type: "line",
          left: { kind: "context", lineNo: l++, text },
          right: { kind: "context", lineNo: r++, text },
        });
      }
      continue;
    }
    const del = c.removed ? splitLines(c.value) : [];
    const next = changes[i + 1];
    const ins = c.added ? splitLines(c.value) : next?.added ? splitLines(next.value) : [];
    if (c.removed && next?.added) i++;
    removed += del.length;
    added += ins.length;
    for (let k = 0; k < Math.max(del.length, ins.length); k++) {
      const a = del[k];
      const b = ins[k];
      const seg = a !== undefined && b !== undefined ? pairSegments(a, b) : {};
      rows.push({
        type: "line",
        left: a === undefined ? EMPTY : { kind: "removed", lineNo: l++, text: a, segments: seg.left },
        right: b === undefined ? EMPTY : { kind: "added", lineNo: r++, text: b, segments: seg.right },
      });
    }
  }
  return { rows, added, removed };
}

/** Folds unchanged stretches longer than 2 × context (+1), keeping `context` lines next to each change. */
export function foldContext(rows: LineRow[], context = 3): DiffRow[] {
  const changed = rows.map((row) => row.left.kind !== "context");
  const keep = rows.map(() => false);
  changed.forEach((isChanged, i) => {
    if (!isChanged) return;
    for (let k = Math.max(0, i - context); k <= Math.min(rows.length - 1, i + context); k++) keep[k] = true;
  });
  const out: DiffRow[] = [];
  let hidden: LineRow[] = [];
  let id = 0;
  const flush = () => {
    if (hidden.length === 1)
      out.push(hidden[0]!); // folding one line saves nothing
    else if (hidden.length > 1) out.push({ type: "fold", id: id++, rows: hidden });
    hidden = [];
  };
  rows.forEach((row, i) => {
    if (keep[i]) {
      flush();
      out.push(row);
    } else {
      hidden.push(row);
    }
  });
  flush();
  return out;
}

export function buildSideBySide(oldText: string, newText: string, context = 3): SideBySide {
  const { rows, added, removed } = alignRows(oldText, newText);
  return { rows: foldContext(rows, context), added, removed };
}
