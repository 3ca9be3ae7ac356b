/**
 * ALFWorld: household tasks in a text simulator — the built-in procedural simulator by default, or the
 * real ALFWorld through a Python bridge (`env.simulator: alfworld`, items with a `gamefile`).
 */
import type { RunConfig } from "../../contracts/run-config";
import type { Environment } from "../../engine/ports";
import { benchmarkOptions } from "../common/env-options";
import type { BenchmarkContext, BenchmarkDefinition } from "../benchmark";
import { alfworldDescriptor } from "./descriptor";
import { Limiter } from "./limiter";
import { rolloutAlfworld } from "./rollout";
import { alfworldSimResponder } from "./sim-responder";
import { TASK_TYPES } from "./sim/world";
import { alfworldBrief } from "../common/analyst-briefs";

export { alfworldSample, alfworldSimRules } from "./descriptor";

/** The error analyst's failure categories (the six task types are described in the analyst brief). */
export const ALFWORLD_FAILURE_TAXONOMY = [
  "navigation_loop",
  "missed_object",
  "wrong_sequence",
  "premature_stop",
  "action_loop",
  "appliance_error",
  "rule_missing",
  "rule_wrong",
  "rule_ignored",
  "other",
];

/** Seconds to wait for one answer of the real-ALFWorld bridge (loading a game can be slow). */
const BRIDGE_TIMEOUT_SEC = 120;

/** The ALFWorld environment for a run. */
export function createAlfworldEnv(config: RunConfig, context?: BenchmarkContext): Environment {
  const options = benchmarkOptions(config, "alfworld");
  const run = {
    config,
    maxSteps: options.max_steps,
    limiter: new Limiter(options.max_api_workers),
    games: {
      simulator: options.simulator,
      rootDir: context?.rootDir ?? ".",
      vars: context?.vars ?? {},
      bridgeTimeoutMs: BRIDGE_TIMEOUT_SEC * 1000,
      ...(context?.paths ? { paths: context.paths } : {}),
    },
  };
  return {
    name: "alfworld",
    taskTypes: () => [...TASK_TYPES],
    rollout: (input) => rolloutAlfworld(run, input),
    failureTaxonomy: () => [...ALFWORLD_FAILURE_TAXONOMY],
    analystBrief: () => alfworldBrief(ALFWORLD_FAILURE_TAXONOMY, TASK_TYPES),
  };
}

/** Registry entry: the descriptor, the environment and the simulated household. */
export const alfworldBenchmark: BenchmarkDefinition = {
  ...alfworldDescriptor,
  create: (config, _splits, context) => createAlfworldEnv(config, context),
  simResponder: alfworldSimResponder,
};
