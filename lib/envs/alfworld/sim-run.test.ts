import { describe, expect, it } from "vitest";
import { simRunPreset } from "../../runs/sim-harness";

describe("configs/alfworld/sample.yaml on the simulated model", () => {
  it("improves the best selection score over the baseline and rejects at least one candidate", async () => {
    const { summary, history, best } = await simRunPreset("configs/alfworld/sample.yaml");
    expect(summary.best_selection_hard as number).toBeGreaterThan(summary.baseline_selection_hard as number);
    expect(history.some((h) => h.action === "reject")).toBe(true);
    expect(best).toMatch(/Open every closed receptacle/);
    expect(best).not.toMatch(/do not bother to open/);
  }, 60_000);
});
