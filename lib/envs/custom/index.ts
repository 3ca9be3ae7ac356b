/**
 * Custom: bring your own question/answer file (JSONL or CSV) with a field mapping and a metric
 * (exact, contains, f1, numeric, regex or an LLM judge). A ratio split of `env.data_path` is the natural
 * mode; a split folder works too. There is no built-in sample: `configs/custom/sample.yaml` splits the
 * shipped `configs/custom/example.jsonl`, whose rows carry hidden annotations for the simulated model.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { Environment, ModelClient } from "../../engine/ports";
import type { BenchmarkDefinition } from "../benchmark";
import { customDescriptor } from "./descriptor";
import { customOptions } from "./options";
import { CUSTOM_TASK_TYPE, rolloutCustom } from "./rollout";
import { customBrief } from "../common/analyst-briefs";

/** The error analyst's failure categories for a generic question/answer set. */
export const CUSTOM_FAILURE_TAXONOMY = [
  "wrong_answer",
  "answer_format",
  "context_ignored",
  "incomplete_answer",
  "rule_missing",
  "other",
];

/** The custom environment for a run; `judge` is the optimizer model (needed only by metric `judge`). */
export function createCustomEnv(config: RunConfig, judge?: ModelClient): Environment {
  const options = customOptions(config);
  return {
    name: "custom",
    taskTypes: () => [CUSTOM_TASK_TYPE],
    rollout: (input) => rolloutCustom({ config, options, judge }, input),
    failureTaxonomy: () => [...CUSTOM_FAILURE_TAXONOMY],
    analystBrief: () => customBrief(CUSTOM_FAILURE_TAXONOMY),
  };
}

/** Registry entry: the descriptor and the environment (the judge is the run's optimizer). */
export const customBenchmark: BenchmarkDefinition = {
  ...customDescriptor,
  create: (config, _splits, context) => createCustomEnv(config, context?.optimizer),
};
