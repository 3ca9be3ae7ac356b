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
