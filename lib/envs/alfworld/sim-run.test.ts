import { describe, expect, it } from "vitest";
import { loadRunConfig } from "../../config";
import type { EngineEvent } from "../../contracts/events";
import { MemoryCheckpointStore, runTraining } from "../../engine";
import { prepareRun } from "../../runs/prepare";

describe("configs/alfworld/sample.yaml on the simulated model", () => {
  it("improves the best selection score over the baseline and rejects at least one candidate", async () => {
    const { config } = loadRunConfig("configs/alfworld/sample.yaml");
    const run = prepareRun({ config, rootDir: process.cwd() });
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
    const best = (await store.getText("best_skill.md")) ?? "";
    expect(summary.best_selection_hard as number).toBeGreaterThan(summary.baseline_selection_hard as number);
    expect(history.some((h) => h.action === "reject")).toBe(true);
    expect(best).toMatch(/Open every closed receptacle/);
    expect(best).not.toMatch(/do not bother to open/);
  }, 60_000);
});
