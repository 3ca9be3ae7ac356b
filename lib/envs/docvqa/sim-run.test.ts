import { describe, expect, it } from "vitest";
import { simRunPreset } from "../../runs/sim-harness";

describe("configs/docvqa/sample.yaml on the simulated model", () => {
  it("improves the best selection score over the baseline, with at least one rejected step", async () => {
    const { run, summary, history, events, best } = await simRunPreset("configs/docvqa/sample.yaml");
    expect(run.simulated).toBe(true);
    expect(summary.best_selection_hard as number).toBeGreaterThan(summary.baseline_selection_hard as number);
    expect(history.some((h) => h.action === "reject")).toBe(true);
    // Every rollout read its page image: no error trajectories.
    const rollouts = events.filter((e) => e.type === "rolloutCompleted");
    expect(rollouts.length).toBeGreaterThan(0);
    expect(rollouts.every((e) => e.type === "rolloutCompleted" && e.nErrors === 0 && e.nTimeouts === 0)).toBe(true);
    expect(best).not.toMatch(/include the field label/i);
  });
});
