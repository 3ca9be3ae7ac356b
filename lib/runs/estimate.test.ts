import { describe, expect, it } from "vitest";
import { loadRunConfig } from "../config";
import { planRun } from "../engine";
import { loadBenchmarkSplits } from "../envs";
import { estimateRun } from "./estimate";
import { epochBatchSizes, hierMergeCalls, reflectCallsPerStep } from "./estimate-calls";

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

describe("call counting rules", () => {
  it("counts hierarchical merges as the engine chunks them (a chunk of one is passed through)", () => {
    expect(hierMergeCalls(0, 8)).toBe(0);
    expect(hierMergeCalls(1, 8)).toBe(0);
    expect(hierMergeCalls(2, 8)).toBe(1);
    expect(hierMergeCalls(9, 8)).toBe(2); // [8] merged, [1] passed through, then the two together
    expect(hierMergeCalls(5, 2)).toBe(4); // 5 → 3 (2 calls) → 2 (1 call) → 1 (1 call)
  });

  it("cuts an epoch into batches like planTrainEpoch: the last one shorter, one past the end refilled", () => {
    expect(epochBatchSizes(23, 10, 3)).toEqual([10, 10, 3]);
    expect(epochBatchSizes(6, 5, 4)).toEqual([5, 1, 5, 5]);
  });

  it("never counts more selection or test items than the split holds, whatever sel_env_num says", () => {
    const e = estimate("configs/searchqa/sample.yaml", ["evaluation.sel_env_num=1000", "evaluation.test_env_num=1000"]);
    expect(e.phase("baseline selection")?.calls).toBe(e.splits.val.length);
    const few = estimate("configs/searchqa/sample.yaml", ["evaluation.sel_env_num=3"]);
    expect(few.phase("baseline selection")?.calls).toBe(3);
  });

  it("counts the slow update, the meta skill and their comparisons only when they are on", () => {
    const off = estimate("configs/searchqa/sample.yaml", [
      "optimizer.use_slow_update=false",
      "optimizer.use_meta_skill=false",
    ]);
    expect(off.phase("slow update + meta skill")).toBeUndefined();
    expect(off.phase("epoch comparisons")).toBeUndefined();
    const meta = estimate("configs/searchqa/sample.yaml", ["optimizer.use_slow_update=false"]);
    expect(meta.phase("slow update + meta skill")?.calls).toBe(meta.config.train.num_epochs - 1);
    const n = Math.min(meta.config.optimizer.slow_update_samples, meta.splits.train.length);
    expect(meta.phase("epoch comparisons")?.calls).toBe((meta.config.train.num_epochs - 1) * 2 * n);
  });

  it("counts analysts for the worst split of a batch into failures and successes", () => {
    const { config } = loadRunConfig("configs/searchqa/sample.yaml", ["gradient.minibatch_size=4"]);
    // 10 items in minibatches of 4: 1 failure + 9 successes → 1 + 3 groups; 2 + 8 → 1 + 2.
    expect(reflectCallsPerStep(config, [10]).analysts).toBe(4);
    const failOnly = loadRunConfig("configs/searchqa/sample.yaml", ["gradient.failure_only=true"]).config;
    expect(reflectCallsPerStep(failOnly, [10]).analysts).toBe(Math.ceil(10 / failOnly.gradient.minibatch_size));
  });
});
