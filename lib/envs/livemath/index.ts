/**
 * LiveMathematicianBench: multiple-choice questions about theorems; the options differ by a quantifier,
 * a hypothesis, the strength of the conclusion or the direction of an implication.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { SimRule } from "../../contracts/sim";
import type { Environment } from "../../engine/ports";
import type { Item, Splits } from "../../engine/types";
import type { BenchmarkDefinition } from "../benchmark";
import { envFlag } from "../common/env-options";
import { sampleSplits, simRules } from "../common/sample-files";
import sampleTest from "./sample/test/items.json";
import sampleTrain from "./sample/train/items.json";
import sampleVal from "./sample/val/items.json";
import sampleRules from "./sample/sim-rules.json";
import { normaliseLiveMathRow } from "./normalise";
import { rolloutLiveMath } from "./rollout";
import { shuffleItemChoices } from "./shuffle";
import { liveMathBrief } from "../common/analyst-briefs";

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

/** The built-in offline sample (30/15/15 theorem questions with hidden sim annotations). */
export function liveMathSample(): Splits {
  return sampleSplits({ train: sampleTrain, val: sampleVal, test: sampleTest });
}

/** The sample's sim rules (6 real, 2 harmful distractors). */
export function liveMathSimRules(): SimRule[] {
  return simRules(sampleRules);
}

/** Registry descriptor. */
export const liveMathBenchmark: BenchmarkDefinition = {
  name: "livemath",
  create: (config, splits) => createLiveMathEnv(config, splits),
  sample: liveMathSample,
  simRules: liveMathSimRules,
  normalise: normaliseLiveMathRow,
  initialSkillPath: "lib/envs/livemath/initial.md",
};
