import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { simRunPreset } from "../../runs/sim-harness";

const out = mkdtempSync(join(tmpdir(), "custom-sim-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("configs/custom/sample.yaml on the simulated model", () => {
  it("improves the best selection score over the baseline, with at least one rejected step", async () => {
    const { summary, history } = await simRunPreset("configs/custom/sample.yaml", [`env.split_output_dir=${out}`]);
    expect(summary.best_selection_hard as number).toBeGreaterThan(summary.baseline_selection_hard as number);
    expect(summary.best_selection_hard as number).toBeGreaterThanOrEqual(0.8);
    expect(history.some((h) => h.action === "reject")).toBe(true);
    expect(summary.test_hard as number).toBeGreaterThan(summary.baseline_test_hard as number);
  });
});
