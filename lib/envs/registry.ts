/**
 * The benchmark registry: the environment (rollout and scoring) of every implemented benchmark, one entry
 * each; implementations live in their own folders. Only the worker and the CLI load this file; the web
 * process uses the descriptors (./descriptors.ts), and .dependency-cruiser.cjs keeps it that way.
 */
import type { RunConfig } from "../contracts/run-config";
import type { SimKnowledge } from "../contracts/sim";
import type { Environment } from "../engine/ports";
import type { Splits } from "../engine/types";
import { alfworldBenchmark } from "./alfworld";
import type { BenchmarkContext, BenchmarkDefinition } from "./benchmark";
import { customBenchmark } from "./custom";
import * as descriptors from "./descriptors";
import { docVqaBenchmark } from "./docvqa";
import { liveMathBenchmark } from "./livemath";
import { officeQaBenchmark } from "./officeqa";
import { searchQaBenchmark } from "./searchqa";
import { spreadsheetBenchmark } from "./spreadsheetbench";

export {
  benchmarkSplitOptions,
  getBenchmark,
  initialSkillPath,
  listBenchmarks,
  loadBenchmarkSplits,
  registerBenchmark,
  type BenchmarkRegistration,
} from "./descriptors";

const BUILT_IN: Record<string, BenchmarkDefinition> = {
  searchqa: searchQaBenchmark,
  livemath: liveMathBenchmark,
  docvqa: docVqaBenchmark,
  officeqa: officeQaBenchmark,
  spreadsheetbench: spreadsheetBenchmark,
  alfworld: alfworldBenchmark,
  custom: customBenchmark,
};

/** The implementation of a name or alias (a registered one first); unknown → the descriptors' error. */
function definitionOf(name: string): BenchmarkDefinition {
  const registered = descriptors.findRegisteredBenchmark(name);
  if (registered) return registered;
  return BUILT_IN[descriptors.getBenchmark(name).name]!;
}

/**
 * The environment of `config.env.name`; `splits` (optional) lets it derive task types from the loaded
 * items; `context` gives data-reading benchmarks the project root and the environment variables.
 */
export function createEnvironment(config: RunConfig, splits?: Splits, context?: BenchmarkContext): Environment {
  return definitionOf(config.env.name).create(config, splits, context);
}

/** What the simulated model knows, with the benchmark's own simulated target when it has one. */
export function loadSimKnowledge(config: RunConfig, splits: Splits): SimKnowledge | null {
  return descriptors.loadSimKnowledge(config, splits, definitionOf(config.env.name).simResponder);
}
