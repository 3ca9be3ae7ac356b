/**
 * Filters and summaries of the item-history view (pure): text search over id, reference and latest
 * prediction; failures only (the current skill's latest result is wrong or unanswered); changed only
 * (the current skill's result turned at least once). Strips are run-length encoded for drawing.
 */
import type { ItemChange, ItemHistoryRow, ResultCode } from "@/lib/contracts/item-history";

export interface ItemFilter {
  query: string;
  failuresOnly: boolean;
  changedOnly: boolean;
}

/** The current skill's latest known result ("." when the item was never evaluated). */
export function latestResult(row: Pick<ItemHistoryRow, "current">): ResultCode {
  return (row.current.at(-1) ?? ".") as ResultCode;
}

export function isFailing(row: Pick<ItemHistoryRow, "current">): boolean {
  const r = latestResult(row);
  return r === "0" || r === "e";
}

export function matchesFilter(row: ItemHistoryRow, f: ItemFilter): boolean {
  if (f.failuresOnly && !isFailing(row)) return false;
  if (f.changedOnly && row.changes.length === 0) return false;
  const q = f.query.trim().toLowerCase();
  if (!q) return true;
  return [row.id, row.reference ?? "", row.lastPrediction ?? ""].some((s) => s.toLowerCase().includes(q));
}

export function filterItems(rows: readonly ItemHistoryRow[], f: ItemFilter): ItemHistoryRow[] {
  return rows.filter((r) => matchesFilter(r, f));
}

export interface Run {
  code: ResultCode;
  start: number;
  length: number;
}

/** Consecutive equal codes as runs: a 1,000-evaluation strip is drawn with a handful of rectangles. */
export function runsOf(codes: string): Run[] {
  const out: Run[] = [];
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] as ResultCode;
    const last = out.at(-1);
    if (last && last.code === code) last.length++;
    else out.push({ code, start: i, length: 1 });
  }
  return out;
}

/** "fixed at 3 · broken at 9 · +2 more" */
export function describeChanges(changes: ItemHistoryRow["changes"], max = 3): string {
  if (changes.length === 0) return "";
  const shown = changes.slice(0, max).map((c) => `${c.to} at ${c.step === 0 ? "baseline" : `step ${c.step}`}`);
  return changes.length > max ? `${shown.join(" · ")} · +${changes.length - max} more` : shown.join(" · ");
}

export interface ChangeWindow {
  head: readonly ItemChange[];
  /** How many changes lie between head and tail (0 when every change is shown). */
  hidden: number;
  tail: readonly ItemChange[];
}

/**
 * The changes a row shows before it is expanded: the first `head` and the last `tail` (an item that flips
 * at every accepted step of a 1,000-step run has hundreds, and a button each would cost the view seconds).
 */
export function changeWindow(changes: readonly ItemChange[], head = 2, tail = 2): ChangeWindow {
  if (changes.length <= head + tail + 1) return { head: changes, hidden: 0, tail: [] };
  return { head: changes.slice(0, head), hidden: changes.length - head - tail, tail: changes.slice(-tail) };
}
