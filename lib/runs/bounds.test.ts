import { describe, expect, it } from "vitest";
import { LIMITS } from "../contracts/run-config";
import { planRun } from "../engine";
import { ConfigError, loadRunConfig } from "../config";

const load = (overrides: string[], preset = "configs/searchqa/sample.yaml") => loadRunConfig(preset, overrides);

describe("upper bounds a real run never reaches", () => {
  it.each([
    ["train.num_epochs=1e9", "train.num_epochs", 1000],
    ["train.num_epochs=1001", "train.num_epochs", 1000],
    ["train.batch_size=1e6", "train.batch_size", 10_000],
    ["train.accumulation=5000", "train.accumulation", 1000],
    ["train.steps_per_epoch=1e9", "train.steps_per_epoch", 100_000],
    ["gradient.minibatch_size=20000", "gradient.minibatch_size", 10_000],
    ["gradient.analyst_workers=10000", "gradient.analyst_workers", 256],
    ["evaluation.sel_env_num=1e7", "evaluation.sel_env_num", 1_000_000],
    ["evaluation.test_env_num=1e7", "evaluation.test_env_num", 1_000_000],
    ["env.limit=1e12", "env.limit", 1_000_000],
    ["env.workers=100000", "env.workers", 256],
    ["env.max_turns=1e6", "env.max_turns", 1000],
    ["env.max_completion_tokens=1e9", "env.max_completion_tokens", 1_000_000],
    ["model.rewrite_max_completion_tokens=1e9", "model.rewrite_max_completion_tokens", 1_000_000],
  ])("%s is refused naming %s and its bound", (override, field, bound) => {
    let err: unknown;
    try {
      load([override]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect(err).toMatchObject({
      field,
      message: expect.stringMatching(new RegExp(`^${field.replace(".", "\\.")}: at most ${bound} `)),
    });
  });

  it("bounds benchmark options too", () => {
    expect(() => load(["env.max_steps=1e6"], "configs/alfworld/sample.yaml")).toThrow(/env\.max_steps: at most 1000/);
    expect(() => load(["env.max_tool_turns=5000"], "configs/officeqa/sample.yaml")).toThrow(
      /env\.max_tool_turns: at most 1000/,
    );
  });

  it("bounds the total steps, epochs × steps per epoch, before anything is queued", () => {
    const { config } = load(["train.num_epochs=1000", "train.batch_size=1"]);
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i) }));
    const splits = { train: items(101), val: items(1), test: items(1) };
    expect(() => planRun(config, splits)).toThrow(
      `train.num_epochs: 1000 epochs × 101 steps per epoch is 101000 steps; at most ${LIMITS.totalSteps}`,
    );
    expect(planRun(config, { ...splits, train: items(100) }).totalSteps).toBe(LIMITS.totalSteps);
  });
});
