/**
 * ALFWorld: household tasks in a text simulator — the built-in procedural simulator by default, or the
 * real ALFWorld through a Python bridge (`env.simulator: alfworld`, items with a `gamefile`).
 */
import type { RunConfig } from "../../contracts/run-config";
import type { SimRule } from "../../contracts/sim";
import type { Environment } from "../../engine/ports";
import type { Splits } from "../../engine/types";
import { benchmarkOptions } from "../common/env-options";
import type { BenchmarkContext, BenchmarkDefinition } from "../benchmark";
import { sampleSplits, simRules } from "../common/sample-files";
import { Limiter } from "./limiter";
import { normaliseAlfworldRow } from "./normalise";
import { rolloutAlfworld } from "./rollout";
import sampleTest from "./sample/test/items.json";
import sampleTrain from "./sample/train/items.json";
import sampleVal from "./sample/val/items.json";
import sampleRules from "./sample/sim-rules.json";
import { alfworldSimResponder } from "./sim-responder";
import { TASK_TYPES } from "./sim/world";
import { alfworldBrief } from "../common/analyst-briefs";

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

/** The built-in offline sample: 18/12/12 generated games with hidden sim annotations. */
export function alfworldSample(): Splits {
  return sampleSplits({ train: sampleTrain, val: sampleVal, test: sampleTest });
}

/** The sample's sim rules (5 real, 2 harmful distractors). */
export function alfworldSimRules(): SimRule[] {
  return simRules(sampleRules);
}

/** Registry descriptor. */
export const alfworldBenchmark: BenchmarkDefinition = {
  name: "alfworld",
  create: (config, _splits, context) => createAlfworldEnv(config, context),
  sample: alfworldSample,
  simRules: alfworldSimRules,
  simResponder: alfworldSimResponder,
  normalise: normaliseAlfworldRow,
  initialSkillPath: "lib/envs/alfworld/initial.md",
  targetCallsPerRollout: (config) => benchmarkOptions(config, "alfworld").max_steps,
};
