/**
 * SearchQA: answer a trivia question from retrieved passages; exact match against the gold answers.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { SimRule } from "../../contracts/sim";
import type { Environment } from "../../engine/ports";
import type { Splits } from "../../engine/types";
import type { BenchmarkDefinition } from "../benchmark";
import { sampleSplits, simRules } from "../common/sample-files";
import sampleTest from "./sample/test/items.json";
import sampleTrain from "./sample/train/items.json";
import sampleVal from "./sample/val/items.json";
import sampleRules from "./sample/sim-rules.json";
import { normaliseSearchQaRow } from "./normalise";
import { rolloutSearchQa } from "./rollout";
import { searchQaBrief } from "../common/analyst-briefs";

export { exactMatch, f1Score, normaliseAnswer } from "./evaluate";
export { buildSearchQaSystemPrompt, buildSearchQaUserPrompt } from "./prompt";

/** The error analyst's failure categories for SearchQA. */
export const SEARCHQA_FAILURE_TAXONOMY = ["rule_missing", "rule_wrong", "rule_ignored", "answer_format", "other"];

/** The SearchQA environment for a run. */
export function createSearchQaEnv(config: RunConfig): Environment {
  return {
    name: "searchqa",
    taskTypes: () => ["qa"],
    rollout: (input) => rolloutSearchQa(config, input),
    failureTaxonomy: () => [...SEARCHQA_FAILURE_TAXONOMY],
    analystBrief: () => searchQaBrief(SEARCHQA_FAILURE_TAXONOMY),
  };
}

/** The built-in offline sample (30/15/15 invented items with hidden sim annotations). */
export function searchQaSample(): Splits {
  return sampleSplits({ train: sampleTrain, val: sampleVal, test: sampleTest });
}

/** The sample's sim rules (6 real, 2 harmful distractors). */
export function searchQaSimRules(): SimRule[] {
  return simRules(sampleRules);
}

/** Registry descriptor. */
export const searchQaBenchmark: BenchmarkDefinition = {
  name: "searchqa",
  create: (config) => createSearchQaEnv(config),
  sample: searchQaSample,
  simRules: searchQaSimRules,
  normalise: normaliseSearchQaRow,
  initialSkillPath: "lib/envs/searchqa/initial.md",
  targetCallsPerRollout: (config) => Math.max(1, config.env.max_turns),
};
