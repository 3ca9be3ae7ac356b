/**
 * Custom data's side (web-safe): no built-in sample, the shipped example's sim rules, the field-mapping
 * normaliser and the seed skill.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { SimRule } from "../../contracts/sim";
import type { Splits } from "../../engine/types";
import { AppError } from "../../errors";
import type { BenchmarkDescriptor } from "../benchmark";
import { simRules } from "../common/sample-files";
import exampleRules from "./sample/sim-rules.json";
import { createCustomNormaliser } from "./normalise";
import { customOptions } from "./options";

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

export const customDescriptor: BenchmarkDescriptor = {
  name: "custom",
  sample: noSample,
  simRules: customSimRules,
  normalise: createCustomNormaliser(customOptions({ env: {} } as RunConfig)),
  normaliserFor: (config) => createCustomNormaliser(customOptions(config)),
  splitFileTypes: ["json", "jsonl", "csv"],
  initialSkillPath: "lib/envs/custom/initial.md",
};
