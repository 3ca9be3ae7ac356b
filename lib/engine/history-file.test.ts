import { describe, expect, it } from "vitest";
import { historyJsonText } from "./history-file";
import type { StepRecord } from "./types";

const rec = (step: number, extra: Record<string, unknown> = {}): StepRecord => ({
  step,
  epoch: 1,
  step_in_epoch: step - 1,
  timing: { rollout_s: 0.5, nested: { a: [1, 2, { b: "x\ny" }] } },
  tokens: {},
  action: "reject",
  support_counts: [],
  edit_apply_summary: { applied: [], skipped: {} },
  note: 'quote " and \\ and unicode é',
  ...extra,
});

describe("historyJsonText", () => {
  it("is byte for byte JSON.stringify(records, null, 2), empty or not", () => {
    for (const records of [[], [rec(1)], [rec(1), rec(2, { lr_decision: { budget: 3 } }), rec(3)]]) {
      expect(historyJsonText(records)).toBe(JSON.stringify(records, null, 2));
    }
  });

  it("reuses a record's text across commits and still follows the array it is given", () => {
    const a = rec(1);
    const b = rec(2);
    expect(historyJsonText([a])).toBe(JSON.stringify([a], null, 2));
    const two = historyJsonText([a, b]);
    expect(two).toBe(JSON.stringify([a, b], null, 2));
    // A step that ran again replaces its record: the new object's text is used.
    const b2 = rec(2, { action: "accept" });
    expect(historyJsonText([a, b2])).toBe(JSON.stringify([a, b2], null, 2));
    expect(JSON.parse(historyJsonText([a, b2]))).toEqual([a, b2]);
  });
});

describe("historyJsonText across commits", () => {
  it("appends each commit's record to the text kept for the run, and starts again when the records differ", () => {
    const runA = [rec(1)];
    const runB = [rec(1, { action: "accept" })];
    for (let step = 2; step <= 6; step++) {
      runA.push(rec(step));
      runB.push(rec(step, { note: `b${step}` }));
      // Two runs in one process, committed in turn: each keeps its own text.
      expect(historyJsonText([...runA])).toBe(JSON.stringify(runA, null, 2));
      expect(historyJsonText([...runB])).toBe(JSON.stringify(runB, null, 2));
    }
    // The same run with a step's record replaced (a step that ran again), then shorter, then reordered.
    const replaced = [...runA.slice(0, 3), rec(4, { action: "accept" })];
    expect(historyJsonText(replaced)).toBe(JSON.stringify(replaced, null, 2));
    expect(historyJsonText(runA.slice(0, 2))).toBe(JSON.stringify(runA.slice(0, 2), null, 2));
    const reordered = [runA[0]!, runA[2]!, runA[1]!];
    expect(historyJsonText(reordered)).toBe(JSON.stringify(reordered, null, 2));
    expect(historyJsonText([...runA])).toBe(JSON.stringify(runA, null, 2));
  });
});
