/**
 * Custom: bring your own question/answer file (JSONL or CSV) with a field mapping and a metric
 * (exact, contains, f1, numeric, regex or an LLM judge). A ratio split of `env.data_path` is the natural
 * mode; a split folder works too. There is no built-in sample: `configs/custom/sample.yaml` splits the
 * shipped `configs/custom/example.jsonl`, whose rows carry hidden annotations for the simulated model.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { SimRule } from "../../contracts/sim";
import type { Environment, ModelClient } from "../../engine/ports";
import type { Splits } from "../../engine/types";
import { AppError } from "../../errors";
import type { BenchmarkDefinition } from "../benchmark";
import { simRules } from "../common/sample-files";
import exampleRules from "./sample/sim-rules.json";
import { createCustomNormaliser } from "./normalise";
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

/** Sim rules of the shipped example (configs/custom/example.jsonl); user data has no annotations, so they stay unused. */
export function customSimRules(): SimRule[] {
  return simRules(exampleRules);
}

function noSample(): Splits {
  throw new AppError(
    "INVALID_REQUEST",
    "benchmark 'custom' has no built-in sample; set env.split_mode ratio and env.data_path to your .jsonl/.csv file (configs/custom/sample.yaml uses the shipped example)",
    { field: "env.split_mode" },
  );
}

/** Registry descriptor. */
export const customBenchmark: BenchmarkDefinition = {
  name: "custom",
  create: (config, _splits, context) => createCustomEnv(config, context?.optimizer),
  sample: noSample,
  simRules: customSimRules,
  normalise: createCustomNormaliser(customOptions({ env: {} } as RunConfig)),
  normaliserFor: (config) => createCustomNormaliser(customOptions(config)),
  splitFileTypes: ["json", "jsonl", "csv"],
  initialSkillPath: "lib/envs/custom/initial.md",
};
