/**
 * LiveMathematicianBench: multiple-choice questions about theorems; the options differ by a quantifier,
 * a hypothesis, the strength of the conclusion or the direction of an implication.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { Environment } from "../../engine/ports";
import type { Item, Splits } from "../../engine/types";
import type { BenchmarkDefinition } from "../benchmark";
import { envFlag } from "../common/env-options";
import { liveMathDescriptor, liveMathSample } from "./descriptor";
import { rolloutLiveMath } from "./rollout";
import { shuffleItemChoices } from "./shuffle";
import { liveMathBrief } from "../common/analyst-briefs";

export { liveMathSample, liveMathSimRules } from "./descriptor";

/** The error analyst's failure categories for LiveMath. */
export const LIVEMATH_FAILURE_TAXONOMY = [
  "quantifier_miss",
  "strength_mismatch",
  "condition_miss",
  "option_confusion",
  "other",
];

/** Sorted union of the items' theorem types (`math_mcq` when none has one). */
export function liveMathTaskTypes(items: readonly Item[]): string[] {
  const types = new Set<string>();
  for (const item of items) {
    const list = item.theorem_type;
    if (Array.isArray(list)) for (const t of list) if (typeof t === "string" && t !== "") types.add(t);
  }
  return types.size === 0 ? ["math_mcq"] : [...types].sort();
}

/**
 * The LiveMath environment for a run. Task types come from `splits` when given, else from the sample.
 * `prepareBatch` reshuffles the choices per batch seed unless `env.shuffle_choices` is false.
 */
export function createLiveMathEnv(config: RunConfig, splits?: Splits): Environment {
  const source = splits ?? liveMathSample();
  const taskTypes = liveMathTaskTypes([...source.train, ...source.val, ...source.test]);
  const shuffle = envFlag(config, "shuffle_choices", true);
  return {
    name: "livemath",
    taskTypes: () => [...taskTypes],
    prepareBatch: (items, seed) => (shuffle ? items.map((item) => shuffleItemChoices(item, seed)) : items.slice()),
    rollout: (input) => rolloutLiveMath(config, input),
    failureTaxonomy: () => [...LIVEMATH_FAILURE_TAXONOMY],
    analystBrief: () => liveMathBrief(LIVEMATH_FAILURE_TAXONOMY),
  };
}

/** Registry entry: the descriptor and the environment. */
export const liveMathBenchmark: BenchmarkDefinition = {
  ...liveMathDescriptor,
  create: (config, splits) => createLiveMathEnv(config, splits),
};
