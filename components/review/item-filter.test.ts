import { describe, expect, it } from "vitest";
import type { ItemHistoryRow } from "@/lib/contracts/item-history";
import { changeWindow, describeChanges, filterItems, isFailing, runsOf } from "./item-filter";

const item = (id: string, current: string, extra: Partial<ItemHistoryRow> = {}): ItemHistoryRow => ({
  id,
  reference: null,
  lastPrediction: null,
  cells: current,
  current,
  changes: [],
  ...extra,
});

const rows = [
  item("q1", "0011", { changes: [{ step: 2, to: "fixed" }], reference: "Paris" }),
  item("q2", "1110", { changes: [{ step: 3, to: "broken" }], lastPrediction: "Lyon" }),
  item("q3", "000e"),
  item("q4", "1111"),
];

describe("filterItems", () => {
  it("keeps failures only: latest current result wrong or unanswered", () => {
    expect(filterItems(rows, { query: "", failuresOnly: true, changedOnly: false }).map((r) => r.id)).toEqual([
      "q2",
      "q3",
    ]);
  });
  it("keeps changed items only, and combines with failures", () => {
    expect(filterItems(rows, { query: "", failuresOnly: false, changedOnly: true }).map((r) => r.id)).toEqual([
      "q1",
      "q2",
    ]);
    expect(filterItems(rows, { query: "", failuresOnly: true, changedOnly: true }).map((r) => r.id)).toEqual(["q2"]);
  });
  it("searches id, reference and latest prediction, case-insensitively", () => {
    const ids = (q: string) =>
      filterItems(rows, { query: q, failuresOnly: false, changedOnly: false }).map((r) => r.id);
    expect(ids("PARIS")).toEqual(["q1"]);
    expect(ids("lyon")).toEqual(["q2"]);
    expect(ids(" q4 ")).toEqual(["q4"]);
    expect(ids("nowhere")).toEqual([]);
  });
  it("treats a never-evaluated item as not failing", () => {
    expect(isFailing(item("x", ".."))).toBe(false);
  });
});

describe("runsOf / describeChanges", () => {
  it("run-length encodes a strip", () => {
    expect(runsOf("0011.e")).toEqual([
      { code: "0", start: 0, length: 2 },
      { code: "1", start: 2, length: 2 },
      { code: ".", start: 4, length: 1 },
      { code: "e", start: 5, length: 1 },
    ]);
  });
  it("says where an item was fixed or broken, capped", () => {
    const ch = [1, 2, 3, 4].map((step) => ({ step, to: step % 2 ? ("fixed" as const) : ("broken" as const) }));
    expect(describeChanges(ch.slice(0, 1))).toBe("fixed at step 1");
    expect(describeChanges(ch)).toBe("fixed at step 1 · broken at step 2 · fixed at step 3 · +1 more");
  });
});

describe("changeWindow", () => {
  const ch = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ step: i + 1, to: i % 2 ? ("broken" as const) : ("fixed" as const) }));
  it("shows every change of a row with few", () => {
    expect(changeWindow(ch(5))).toEqual({ head: ch(5), hidden: 0, tail: [] });
    expect(changeWindow([])).toEqual({ head: [], hidden: 0, tail: [] });
  });
  it("keeps the first and last changes of a row with many and counts the rest", () => {
    const all = ch(133);
    const w = changeWindow(all);
    expect(w.head.map((c) => c.step)).toEqual([1, 2]);
    expect(w.tail.map((c) => c.step)).toEqual([132, 133]);
    expect(w.hidden).toBe(129);
    expect(w.head.length + w.hidden + w.tail.length).toBe(all.length);
  });
});
