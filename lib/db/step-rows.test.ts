import { describe, expect, it } from "vitest";
import { stepRecordOf } from "./step-rows";

describe("step rows read the step record through its schema", () => {
  it("reads the fields the Step row is built from; an uncomputable score is null, not 0", () => {
    const r = stepRecordOf({
      step: 2,
      record: { step: 2, epoch: 1, step_in_epoch: 2, rollout_hard: Number.NaN, selection_hard: 0.25, extra: "kept" },
    });
    expect(r).toMatchObject({ step_in_epoch: 2, rollout_hard: null, selection_hard: 0.25, extra: "kept" });
    expect(r.rollout_soft).toBeNull();
  });

  it("a record that does not parse names the step and the field", () => {
    expect(() =>
      stepRecordOf({ step: 4, record: { step: 4, epoch: 1, step_in_epoch: 4, n_edits_merged: "three" } }),
    ).toThrow(/^stepCommitted of step 4: record field n_edits_merged: /);
    expect(() => stepRecordOf({ step: 5, record: { step: 5, epoch: 1 } })).toThrow(
      /^stepCommitted of step 5: record field step_in_epoch: /,
    );
  });
});
