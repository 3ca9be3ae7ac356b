import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadRunConfig } from "../../config";
import { MemoryCheckpointStore, runTraining } from "../../engine";
import { prepareRun } from "../../runs/prepare";

const out = mkdtempSync(join(tmpdir(), "custom-sim-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("configs/custom/sample.yaml on the simulated model", () => {
  it("improves the best selection score over the baseline, with at least one rejected step", async () => {
    const { config } = loadRunConfig("configs/custom/sample.yaml", [`env.split_output_dir=${out}`]);
    const run = prepareRun({ config, rootDir: process.cwd() });
    const store = new MemoryCheckpointStore();
    let t = 0;
    const summary = await runTraining({
      config, splits: run.splits, initialSkill: run.initialSkill, env: run.env,
      optimizer: run.optimizer, target: run.target, store,
      events: { emit: () => {} }, clock: { now: () => (t += 1) },
    });
    const history = (await store.getJson<Array<Record<string, unknown>>>("history.json")) ?? [];
    expect(summary.best_selection_hard as number).toBeGreaterThan(summary.baseline_selection_hard as number);
    expect(summary.best_selection_hard as number).toBeGreaterThanOrEqual(0.8);
    expect(history.some((h) => h.action === "reject")).toBe(true);
    expect(summary.test_hard as number).toBeGreaterThan(summary.baseline_test_hard as number);
  });
});
