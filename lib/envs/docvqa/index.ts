/**
 * DocVQA: answer a question about the image of a document page; scored by ANLS.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { Environment } from "../../engine/ports";
import type { Item, Splits } from "../../engine/types";
import type { BenchmarkContext, BenchmarkDefinition } from "../benchmark";
import { DEFAULT_TASK_TYPE } from "./normalise";
import { docVqaDescriptor, docVqaSample } from "./descriptor";
import { rolloutDocVqa } from "./rollout";
import { docVqaBrief } from "../common/analyst-briefs";

export { docVqaSample, docVqaSimRules } from "./descriptor";

/** The error analyst's failure categories for DocVQA. */
export const DOCVQA_FAILURE_TAXONOMY = [
  "evidence_miss",
  "near_match_confusion",
  "normalization_error",
  "reading_error",
  "other",
];

/** Sorted distinct task types of the items (`docvqa` when none has one). */
export function docVqaTaskTypes(items: readonly Item[]): string[] {
  const types = new Set<string>();
  for (const item of items) if (typeof item.task_type === "string" && item.task_type !== "") types.add(item.task_type);
  return types.size === 0 ? [DEFAULT_TASK_TYPE] : [...types].sort();
}

/**
 * The DocVQA environment for a run. Relative image paths resolve against the item's source folder, the
 * split_dir, then `context.rootDir` (the current directory when no context is given).
 */
export function createDocVqaEnv(config: RunConfig, splits?: Splits, context?: BenchmarkContext): Environment {
  const source = splits ?? docVqaSample();
  const taskTypes = docVqaTaskTypes([...source.train, ...source.val, ...source.test]);
  const rootDir = context?.rootDir ?? process.cwd();
  return {
    name: "docvqa",
    taskTypes: () => [...taskTypes],
    rollout: (input) => rolloutDocVqa({ config, rootDir, ...(context?.paths ? { paths: context.paths } : {}) }, input),
    failureTaxonomy: () => [...DOCVQA_FAILURE_TAXONOMY],
    analystBrief: () => docVqaBrief(DOCVQA_FAILURE_TAXONOMY),
  };
}

/** Registry entry: the descriptor and the environment. */
export const docVqaBenchmark: BenchmarkDefinition = {
  ...docVqaDescriptor,
  create: (config, splits, context) => createDocVqaEnv(config, splits, context),
};
