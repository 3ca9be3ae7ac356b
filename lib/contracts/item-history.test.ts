import { describe, expect, it } from "vitest";
import {
  buildItemHistory,
  expandItemHistory,
  toItemHistoryWire,
  type HistoryEvalRow,
  type HistoryStep,
} from "./item-history";

const row = (label: string, step: number, itemId: string, hard: number, skillHash: string, status = "ok") =>
  ({
    label,
    step,
    itemId,
    hard,
    status,
    skillHash,
    prediction: `p${step}`,
    reference: `ref ${itemId}`,
  }) as HistoryEvalRow;

describe("buildItemHistory (selection)", () => {
  const steps: HistoryStep[] = [
    { step: 1, action: "reject", candidateHash: "c1" },
    { step: 2, action: "accept_new_best", candidateHash: "c2" },
    { step: 3, action: "skip_no_patches", candidateHash: null },
    { step: 4, action: "accept", candidateHash: "c4" },
    { step: 5, action: "reject", candidateHash: "c2" }, // cached: same skill as step 2, no rows of its own
    { step: 6, action: "reject", candidateHash: "c6" }, // cached with no rows anywhere
  ];
  const rows = [
    row("baseline", 0, "q1", 0, "seed"),
    row("baseline", 0, "q2", 1, "seed"),
    row("selection", 1, "q1", 1, "c1"),
    row("selection", 1, "q2", 0, "c1"),
    row("selection", 2, "q1", 1, "c2"),
    row("selection", 2, "q2", 1, "c2"),
    row("selection", 4, "q1", 0, "c4", "error"),
    row("selection", 4, "q2", 0, "c4"),
  ];
  const h = buildItemHistory("selection", rows, steps);

  it("has one evaluation per scored candidate plus the baseline, with where the results came from", () => {
    expect(h.evaluations.map((e) => [e.step, e.source, e.adopted])).toEqual([
      [0, "measured", true],
      [1, "measured", false],
      [2, "measured", true],
      [4, "measured", true],
      [5, "reused", false],
      [6, "last_known", false],
    ]);
  });

  it("follows the current skill: a rejected candidate's flip is not a change, an accepted one is", () => {
    const q1 = h.items.find((i) => i.id === "q1")!;
    expect(q1.cells).toBe("011e1.");
    // The error at step 4 is not an answer: the current result stays unknown-as-error, with no change.
    expect(q1.current).toBe("001eee");
    expect(q1.changes).toEqual([{ step: 2, to: "fixed" }]);
    const q2 = h.items.find((i) => i.id === "q2")!;
    expect(q2.cells).toBe("10101.");
    expect(q2.current).toBe("111000");
    expect(q2.changes).toEqual([{ step: 4, to: "broken" }]);
    expect(q2.reference).toBe("ref q2");
  });

  it("sends only the measured codes: the browser derives the same current results and changes", () => {
    const wire = toItemHistoryWire(h);
    expect(wire.items[0]).toEqual({ id: "q1", reference: "ref q1", lastPrediction: "p2", cells: "011e1." });
    expect(expandItemHistory(JSON.parse(JSON.stringify(wire)))).toEqual(h);
  });
});

describe("buildItemHistory (train)", () => {
  it("carries the last observation between the batches an item was in and orders ids naturally", () => {
    const rows = [row("rollout", 1, "t10", 0, ""), row("rollout", 1, "t2", 0, ""), row("rollout", 3, "t2", 1, "")];
    const h = buildItemHistory("train", rows, [
      { step: 1, action: "reject", candidateHash: "a" },
      { step: 3, action: "reject", candidateHash: "b" },
    ]);
    expect(h.items.map((i) => i.id)).toEqual(["t2", "t10"]);
    expect(h.items[0]).toMatchObject({ cells: "01", current: "01", changes: [{ step: 3, to: "fixed" }] });
    expect(h.items[1]).toMatchObject({ cells: "0.", current: "00", changes: [] });
  });
});

describe("buildItemHistory (slow-update gates)", () => {
  const steps: HistoryStep[] = [
    { step: 1, action: "accept", candidateHash: "c1" },
    { step: 2, action: "reject", candidateHash: "c2" },
    { step: 3, action: "reject", candidateHash: "c3" },
  ];
  const rows = [
    row("baseline", 0, "q1", 0, "seed"),
    row("selection", 1, "q1", 0, "c1"),
    row("selection", 2, "q1", 1, "c2"),
    row("slow_update", 2, "q1", 1, "s2"),
    row("selection", 3, "q1", 0, "c3"),
  ];

  it("a slow update's own rows are a column after the step it followed; an accepted one moves the current result", () => {
    const h = buildItemHistory("selection", rows, steps, [{ step: 2, action: "accept" }]);
    expect(h.evaluations.map((e) => [e.step, e.label, e.action, e.adopted])).toEqual([
      [0, "baseline", null, true],
      [1, "selection", "accept", true],
      [2, "selection", "reject", false],
      [2, "slow_update", "accept", true],
      [3, "selection", "reject", false],
    ]);
    expect(h.items[0]).toMatchObject({ cells: "00110", current: "00011", changes: [{ step: 2, to: "fixed" }] });
  });

  it("a rejected slow update is measured but not adopted; one without rows adds no column", () => {
    const rejected = buildItemHistory("selection", rows, steps, [{ step: 2, action: "reject" }]);
    expect(rejected.items[0]).toMatchObject({ cells: "00110", current: "00000", changes: [] });
    const forced = buildItemHistory("selection", rows.slice(0, 3).concat(rows[4]!), steps, [
      { step: 2, action: "force_accept" },
    ]);
    expect(forced.evaluations.map((e) => e.label)).not.toContain("slow_update");
  });
});
