/**
 * ALFWorld's data side (web-safe): the offline sample, its sim rules, the row normaliser, the seed skill
 * and the estimate's calls per rollout (one per step).
 */
import type { SimRule } from "../../contracts/sim";
import type { Splits } from "../../engine/types";
import type { BenchmarkDescriptor } from "../benchmark";
import { benchmarkOptions } from "../common/env-options";
import { sampleSplits, simRules } from "../common/sample-files";
import { normaliseAlfworldRow } from "./normalise";
import sampleTest from "./sample/test/items.json";
import sampleTrain from "./sample/train/items.json";
import sampleVal from "./sample/val/items.json";
import sampleRules from "./sample/sim-rules.json";

/** The built-in offline sample: 18/12/12 generated games with hidden sim annotations. */
export function alfworldSample(): Splits {
  return sampleSplits({ train: sampleTrain, val: sampleVal, test: sampleTest });
}

/** The sample's sim rules (5 real, 2 harmful distractors). */
export function alfworldSimRules(): SimRule[] {
  return simRules(sampleRules);
}

export const alfworldDescriptor: BenchmarkDescriptor = {
  name: "alfworld",
  sample: alfworldSample,
  simRules: alfworldSimRules,
  normalise: normaliseAlfworldRow,
  initialSkillPath: "lib/envs/alfworld/initial.md",
  targetCallsPerRollout: (config) => benchmarkOptions(config, "alfworld").max_steps,
};
