/**
 * SearchQA's data side (web-safe): the offline sample, its sim rules, the row normaliser and the seed skill.
 */
import type { SimRule } from "../../contracts/sim";
import type { Splits } from "../../engine/types";
import type { BenchmarkDescriptor } from "../benchmark";
import { sampleSplits, simRules } from "../common/sample-files";
import sampleTest from "./sample/test/items.json";
import sampleTrain from "./sample/train/items.json";
import sampleVal from "./sample/val/items.json";
import sampleRules from "./sample/sim-rules.json";
import { normaliseSearchQaRow } from "./normalise";

/** The built-in offline sample (30/15/15 invented items with hidden sim annotations). */
export function searchQaSample(): Splits {
  return sampleSplits({ train: sampleTrain, val: sampleVal, test: sampleTest });
}

/** The sample's sim rules (6 real, 2 harmful distractors). */
export function searchQaSimRules(): SimRule[] {
  return simRules(sampleRules);
}

export const searchQaDescriptor: BenchmarkDescriptor = {
  name: "searchqa",
  sample: searchQaSample,
  simRules: searchQaSimRules,
  normalise: normaliseSearchQaRow,
  initialSkillPath: "lib/envs/searchqa/initial.md",
  targetCallsPerRollout: (config) => Math.max(1, config.env.max_turns),
};
