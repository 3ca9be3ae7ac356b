/**
 * OfficeQA's data side (web-safe): the offline sample, its sim rules, the row normaliser, the seed skill
 * and how many target calls a rollout may make.
 */
import type { SimRule } from "../../contracts/sim";
import type { Splits } from "../../engine/types";
import type { BenchmarkDescriptor } from "../benchmark";
import { benchmarkOptions } from "../common/env-options";
import { sampleSplits, simRules } from "../common/sample-files";
import { normaliseOfficeQaRow } from "./normalise";
import sampleTest from "./sample/test/items.json";
import sampleTrain from "./sample/train/items.json";
import sampleVal from "./sample/val/items.json";
import sampleRules from "./sample/sim-rules.json";

/** The sample's items, for the simulated agent's probes. */
export const OFFICEQA_SAMPLE_ROWS = [...sampleTrain, ...sampleVal, ...sampleTest] as Array<Record<string, unknown>>;

/** The built-in offline sample (18/12/13 questions over the documents in sample/docs). */
export function officeQaSample(): Splits {
  return sampleSplits({ train: sampleTrain, val: sampleVal, test: sampleTest });
}

/** The sample's sim rules (6 real, 2 harmful distractors). */
export function officeQaSimRules(): SimRule[] {
  return simRules(sampleRules);
}

export const officeQaDescriptor: BenchmarkDescriptor = {
  name: "officeqa",
  sample: officeQaSample,
  simRules: officeQaSimRules,
  normalise: normaliseOfficeQaRow,
  splitFileTypes: ["csv", "json"],
  initialSkillPath: "lib/envs/officeqa/initial.md",
  targetCallsPerRollout: (config) => {
    const o = benchmarkOptions(config, "officeqa");
    return o.search_mode === "custom_search" || o.use_local_tools ? o.max_tool_turns : 1;
  },
};
