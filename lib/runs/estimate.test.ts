import { describe, expect, it } from "vitest";
import { loadRunConfig } from "../config";
import { planRun } from "../engine";
import { loadBenchmarkSplits } from "../envs";
import { estimateRun } from "./estimate";

function estimate(preset: string, overrides: string[] = []) {
  const { config } = loadRunConfig(preset, overrides);
  const splits = loadBenchmarkSplits(config, process.cwd());
  const plan = planRun(config, splits);
  const phase = (name: string) => estimateRun(config, splits, "# Skill\n").phases.find((p) => p.phase === name);
  return { config, splits, plan, phase, all: estimateRun(config, splits, "# Skill\n") };
}

describe("pre-flight estimate", () => {
  it("counts one target call per item for single-call benchmarks", () => {
    const e = estimate("configs/searchqa/sample.yaml");
    const perStep = e.config.train.batch_size * e.config.train.accumulation;
    expect(e.phase("train rollouts")?.calls).toBe(e.plan.totalSteps * perStep);
    expect(e.phase("baseline selection")?.calls).toBe(e.splits.val.length);
    expect(e.all.notes.join(" ")).not.toMatch(/target calls per item/);
  });

  it("multiplies rollout calls by the benchmark's turns per item (ALFWorld steps, OfficeQA tool rounds)", () => {
    const a = estimate("configs/alfworld/sample.yaml", ["env.max_steps=7"]);
    expect(a.phase("baseline selection")?.calls).toBe(a.splits.val.length * 7);
    expect(a.all.notes.join(" ")).toMatch(/up to 7 target calls per item/);
    const o = estimate("configs/officeqa/sample.yaml", ["env.max_tool_turns=5"]);
    expect(o.phase("baseline selection")?.calls).toBe(o.splits.val.length * 5);
    const plain = estimate("configs/officeqa/sample.yaml", ["env.max_tool_turns=5", "env.use_local_tools=false"]);
    expect(plain.phase("baseline selection")?.calls).toBe(plain.splits.val.length);
  });
});
