/**
 * Everything a run needs before it starts — the checked run (splits, seed skill, roles: ./check-run) plus
 * the model clients, their shared policy and the environment — built and validated from a run config
 * without writing anything, so bad input fails before any output exists. The CLI and the worker start
 * runs through here; the web process only checks them (./check-run.ts) and never loads this file.
 * `trust` decides which files the config may name (any for the CLI, the allowed roots for a dashboard run).
 */
import { RunPolicy, type RunPolicyOptions } from "../backends/policy/run-policy";
import { createModelClient } from "../backends/registry";
import type { Environment, ModelClient } from "../engine/ports";
import { createEnvironment, loadSimKnowledge } from "../envs/registry";
import { checkRun, type CheckedRun, type CheckRunOptions } from "./check-run";

export { readSkillFile } from "./check-run";

export interface PreparedRun extends CheckedRun {
  env: Environment;
  optimizer: ModelClient;
  target: ModelClient;
  /** Policy state both clients share: one budget, usage per role and stage (`policy.stats()`), the cache. */
  policy: RunPolicy;
  /** What the user must be told about how this run executes (the CLI prints them, the worker logs them). */
  warnings: string[];
}

export interface PrepareRunOptions extends CheckRunOptions {
  /** Budget already used by earlier sessions of this run, and retry timing overrides for tests. */
  policy?: Pick<RunPolicyOptions, "spent" | "retry" | "budget">;
}

export function prepareRun(opts: PrepareRunOptions): PreparedRun {
  const checked = checkRun(opts);
  const { config, rootDir, splits } = { ...checked, rootDir: opts.rootDir };
  const vars = opts.env ?? {};
  // The sim's knowledge with the benchmark's own simulated target (the check loads the annotations only).
  const simKnowledge = checked.simulated ? loadSimKnowledge(config, splits) : null;
  const policy = new RunPolicy(config, { rootDir, ...opts.policy });
  const ctx = { simKnowledge, env: vars, run: policy };
  const optimizer = createModelClient("optimizer", config, ctx);
  const warnings: string[] = [];
  return {
    ...checked,
    simKnowledge,
    // The optimizer is handed to the benchmark for model-graded metrics (custom's LLM judge).
    env: createEnvironment(config, splits, {
      rootDir,
      vars,
      optimizer,
      paths: checked.paths,
      warn: (m) => warnings.push(m),
    }),
    warnings,
    optimizer,
    target: createModelClient("target", config, ctx),
    policy,
  };
}
