import { describe, expect, it } from "vitest";
import { loadRunConfig } from "../../config";
import { MemoryCheckpointStore, runTraining } from "../../engine";
import { prepareRun } from "../../runs/prepare";

/** Runs the sample preset fully in memory on the simulated model (the scripts really run in Python). */
async function simRun(overrides: string[] = []) {
  const { config } = loadRunConfig("configs/spreadsheetbench/sample.yaml", overrides);
  const run = prepareRun({ config, rootDir: process.cwd() });
  const store = new MemoryCheckpointStore();
  let t = 0;
  const summary = await runTraining({
    config, splits: run.splits, initialSkill: run.initialSkill, env: run.env, optimizer: run.optimizer, target: run.target,
    store, events: { emit: () => undefined }, clock: { now: () => (t += 1) },
  });
  const history = (await store.getJson<Array<Record<string, unknown>>>("history.json")) ?? [];
  const best = (await store.getText("best_skill.md")) ?? "";
  return { summary, history, best };
}

describe("spreadsheetbench sample preset on the simulated model", () => {
  it("improves its best selection score over the baseline and rejects at least one step", async () => {
    const r = await simRun(["evaluation.eval_test=false"]); // the test split adds time, not evidence
    expect(r.summary.best_selection_hard as number).toBeGreaterThan(r.summary.baseline_selection_hard as number);
    expect(r.history.some((h) => h.action === "reject")).toBe(true);
    expect(r.best).toMatch(/never hard-code the number of rows/i);
  }, 120_000);
});
