/**
 * SearchQA: answer a trivia question from retrieved passages; exact match against the gold answers.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { Environment } from "../../engine/ports";
import type { BenchmarkDefinition } from "../benchmark";
import { searchQaDescriptor } from "./descriptor";
import { rolloutSearchQa } from "./rollout";
import { searchQaBrief } from "../common/analyst-briefs";

export { searchQaSample, searchQaSimRules } from "./descriptor";
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

/** Registry entry: the descriptor and the environment. */
export const searchQaBenchmark: BenchmarkDefinition = {
  ...searchQaDescriptor,
  create: (config) => createSearchQaEnv(config),
};
