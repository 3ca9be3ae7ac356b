import { describe, expect, it } from "vitest";
import { simRunPreset } from "../../runs/sim-harness";

/** The sample preset fully in memory on the simulated model (the scripts really run in Python). */
const simRun = (overrides: string[] = []) => simRunPreset("configs/spreadsheetbench/sample.yaml", overrides);

describe("spreadsheetbench sample preset on the simulated model", () => {
  it("improves its best selection score over the baseline and rejects at least one step", async () => {
    const r = await simRun(["evaluation.eval_test=false"]); // the test split adds time, not evidence
    expect(r.summary.best_selection_hard as number).toBeGreaterThan(r.summary.baseline_selection_hard as number);
    expect(r.history.some((h) => h.action === "reject")).toBe(true);
    expect(r.best).toMatch(/never hard-code the number of rows/i);
  }, 120_000);
});
