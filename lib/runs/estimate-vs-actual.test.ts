/**
 * The pre-flight estimate against the calls a run really makes: every sample preset trains on the simulated
 * model, its target calls are counted per rollout phase and its optimizer calls per stage, and each must
 * stay within what the estimate said (phases whose count does not depend on the answers must match it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadRunConfig } from "../config";
import { getBenchmark } from "../envs";
import { MemoryCheckpointStore, runTraining } from "../engine";
import type { ModelClient } from "../engine/ports";
import { estimateRun } from "./estimate";
import { prepareRun } from "./prepare";

const out = mkdtempSync(join(tmpdir(), "estimate-actual-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function countedRun(preset: string, overrides: string[]) {
  const { config } = loadRunConfig(preset, overrides);
  const run = prepareRun({ config, rootDir: process.cwd(), trust: "local" });
  const rollouts: Record<string, number> = {};
  const targetCalls: Record<string, number> = {};
  const counting = (client: ModelClient, phase: string): ModelClient => ({
    backend: client.backend,
    model: client.model,
    complete: (req) => {
      targetCalls[phase] = (targetCalls[phase] ?? 0) + 1;
      return client.complete(req);
    },
  });
  const env = {
    ...run.env,
    rollout: (input: Parameters<typeof run.env.rollout>[0]) => {
      rollouts[input.phase] = (rollouts[input.phase] ?? 0) + 1;
      return run.env.rollout({ ...input, client: counting(input.client, input.phase) });
    },
  };
  let t = 0;
  await runTraining({
    config,
    splits: run.splits,
    initialSkill: run.initialSkill,
    env,
    optimizer: run.optimizer,
    target: run.target,
    store: new MemoryCheckpointStore(),
    events: { emit: () => undefined },
    clock: { now: () => (t += 1) },
  });
  const stats = run.policy.stats();
  const byStage = (stage: string) => stats.optimizer?.byStage[stage]?.calls ?? 0;
  return { run, rollouts, targetCalls, byStage, optimizerCalls: stats.optimizer?.total.calls ?? 0 };
}

const PRESETS = ["searchqa", "livemath", "docvqa", "officeqa", "spreadsheetbench", "alfworld", "custom"];

describe("estimate vs the calls a sample run makes", () => {
  for (const name of PRESETS) {
    it(`${name}/sample.yaml: no phase makes more calls than estimated`, { timeout: 300_000 }, async () => {
      const a = await countedRun(`configs/${name}/sample.yaml`, [`env.split_output_dir=${join(out, name)}`]);
      const e = estimateRun(a.run.config, a.run.splits, a.run.initialSkill);
      const per = (phase: string) => e.phases.find((p) => p.phase === phase)?.calls ?? 0;
      const perItem = Math.max(1, getBenchmark(a.run.config.env.name).targetCallsPerRollout?.(a.run.config) ?? 1);
      // Items do not depend on the answers: train batches, the baseline and the test evaluations are exact.
      expect(per("train rollouts") / perItem).toBe(a.rollouts.train);
      expect(a.rollouts.test).toBeLessThanOrEqual(per("final tests") / perItem);
      expect(a.rollouts.test).toBeGreaterThanOrEqual(2 * a.run.splits.test.length);
      expect(a.rollouts.longitudinal ?? 0).toBeLessThanOrEqual(per("epoch comparisons") / perItem);
      const selectionEstimate = per("baseline selection") + per("selection evaluations") + per("final tests");
      expect(a.rollouts.selection! + a.rollouts.test!).toBeLessThanOrEqual(selectionEstimate / perItem);
      // Target calls per phase (multi-turn benchmarks make several per item, never more than estimated).
      expect(a.targetCalls.train).toBeLessThanOrEqual(per("train rollouts"));
      // Optimizer calls per stage.
      expect(a.byStage("analyst")).toBeLessThanOrEqual(per("analysts"));
      expect(a.byStage("merge")).toBeLessThanOrEqual(per("merges"));
      expect(a.byStage("ranking") + a.byStage("learning_rate")).toBeLessThanOrEqual(per("ranking / learning rate"));
      expect(a.byStage("slow_update") + a.byStage("meta_skill")).toBe(per("slow update + meta skill"));
      const targetTotal = Object.values(a.targetCalls).reduce((s, n) => s + n, 0);
      expect(targetTotal + a.optimizerCalls).toBeLessThanOrEqual(e.totalCalls);
    });
  }
});
