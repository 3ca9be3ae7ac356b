/**
 * DocVQA's data side (web-safe): the offline sample, its sim rules, the row normaliser and the seed skill.
 */
import type { SimRule } from "../../contracts/sim";
import type { Splits } from "../../engine/types";
import type { BenchmarkDescriptor } from "../benchmark";
import { sampleSplits, simRules } from "../common/sample-files";
import sampleTest from "./sample/test/items.json";
import sampleTrain from "./sample/train/items.json";
import sampleVal from "./sample/val/items.json";
import sampleRules from "./sample/sim-rules.json";
import { normaliseDocVqaRow } from "./normalise";

/** The built-in offline sample (invented document pages rendered to PNG, with hidden sim annotations). */
export function docVqaSample(): Splits {
  return sampleSplits({ train: sampleTrain, val: sampleVal, test: sampleTest });
}

/** The sample's sim rules (5 real, 2 harmful distractors). */
export function docVqaSimRules(): SimRule[] {
  return simRules(sampleRules);
}

export const docVqaDescriptor: BenchmarkDescriptor = {
  name: "docvqa",
  sample: docVqaSample,
  simRules: docVqaSimRules,
  normalise: normaliseDocVqaRow,
  splitFileTypes: ["csv"],
  initialSkillPath: "lib/envs/docvqa/initial.md",
  targetCallsPerRollout: (config) => Math.max(1, config.env.max_turns),
};
