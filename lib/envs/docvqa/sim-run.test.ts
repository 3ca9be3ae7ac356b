import { describe, expect, it } from "vitest";
import { loadRunConfig } from "../../config";
import type { EngineEvent } from "../../contracts/events";
import { MemoryCheckpointStore, runTraining } from "../../engine";
import { prepareRun } from "../../runs/prepare";

describe("configs/docvqa/sample.yaml on the simulated model", () => {
  it("improves the best selection score over the baseline, with at least one rejected step", async () => {
    const { config } = loadRunConfig("configs/docvqa/sample.yaml", []);
    const run = prepareRun({ config, rootDir: process.cwd() });
    expect(run.simulated).toBe(true);
    const store = new MemoryCheckpointStore();
    const events: EngineEvent[] = [];
    let t = 0;
    const summary = await runTraining({
      config, splits: run.splits, initialSkill: run.initialSkill, env: run.env,
      optimizer: run.optimizer, target: run.target, store,
      events: { emit: (e) => void events.push(e) },
      clock: { now: () => (t += 1) },
    });
    const history = (await store.getJson<Array<Record<string, unknown>>>("history.json")) ?? [];
    expect(summary.best_selection_hard as number).toBeGreaterThan(summary.baseline_selection_hard as number);
    expect(history.some((h) => h.action === "reject")).toBe(true);
    // Every rollout read its page image: no error trajectories.
    const rollouts = events.filter((e) => e.type === "rolloutCompleted");
    expect(rollouts.length).toBeGreaterThan(0);
    expect(rollouts.every((e) => e.type === "rolloutCompleted" && e.nErrors === 0 && e.nTimeouts === 0)).toBe(true);
    const best = (await store.getText("best_skill.md")) ?? "";
    expect(best).not.toMatch(/include the field label/i);
  });
});
