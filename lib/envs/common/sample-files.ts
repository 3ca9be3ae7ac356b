/**
 * A benchmark's built-in sample: JSON shipped next to its code and imported statically, so it is bundled
 * with the server (the dashboard) and read by tsx (the CLI and worker) the same way.
 */
import { SimRuleSchema, type SimRule } from "../../contracts/sim";
import type { Item, Splits } from "../../engine/types";

/** Fresh copies of the sample splits (items keep their hidden `sim` annotation). */
export function sampleSplits(raw: { train: unknown; val: unknown; test: unknown }): Splits {
  return structuredClone({ train: raw.train as Item[], val: raw.val as Item[], test: raw.test as Item[] });
}

/** The sample's sim rules, validated (defaults applied). */
export function simRules(raw: unknown): SimRule[] {
  return SimRuleSchema.array().parse(raw);
}
