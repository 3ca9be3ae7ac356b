/**
 * What the registries need from one benchmark folder. Its `descriptor.ts` says what the benchmark IS —
 * sample, normaliser, sim rules, seed skill, estimate factors, target checks — and is web-safe: the
 * dashboard loads data, plans splits and estimates with descriptors alone. Its `index.ts` adds `create`
 * (rollout and scoring), which only the worker and the CLI load (lib/envs/registry.ts).
 */
import type { RunConfig } from "../contracts/run-config";
import type { SimResponder, SimRule } from "../contracts/sim";
import type { Environment, ModelClient } from "../engine/ports";
import type { Splits } from "../engine/types";
import type { PathGuard } from "./common/path-guard";
import type { RowNormaliser } from "./common/read-items";

/** Where a benchmark runs: relative data paths resolve against `rootDir`; `vars` is the process environment, passed in. */
export interface BenchmarkContext {
  rootDir: string;
  vars: Readonly<Record<string, string | undefined>>;
  /** The run's optimizer model, for benchmarks graded by a model (custom's LLM judge). */
  optimizer?: ModelClient;
  /** Receives what the user must know about how the run will execute (e.g. model code without a sandbox). */
  warn?: (message: string) => void;
  /**
   * How config and item paths resolve (default: any path, relative to `rootDir`, as the CLI allows). A
   * dashboard run passes a confined guard: data roots, task folders, images and game files named by the
   * config or by the items must stay inside the allowed roots.
   */
  paths?: PathGuard;
}

/** One benchmark's data side: everything but its environment. */
export interface BenchmarkDescriptor {
  /** Canonical name (`config.env.name`). */
  name: string;
  /** The built-in offline sample, items with their hidden `sim` annotations. */
  sample(): Splits;
  /** The sample's sim rule catalogue. */
  simRules(): SimRule[];
  /** Row normaliser/validator used by the split loader. */
  normalise: RowNormaliser;
  /** A normaliser that depends on the run config (custom's field mapping); preferred over `normalise` when set. */
  normaliserFor?(config: RunConfig): RowNormaliser;
  /**
   * At most how many target calls one rollout makes (multi-turn agents, tool loops, code retries); the
   * pre-flight estimate multiplies by it. Default 1.
   */
  targetCallsPerRollout?: (config: RunConfig) => number;
  /**
   * A problem with running this config on the given target backend (e.g. SpreadsheetBench's multi mode
   * needs a chat model, not an agent CLI), as a one-line message and the config key to fix; null if fine.
   */
  checkTarget?: (config: RunConfig, targetBackend: string) => { field: string; message: string } | null;
  /** Split-folder item file types in order of preference (default json, jsonl). */
  splitFileTypes?: readonly string[];
  /** Path of the seed skill (`initial.md`), relative to the project root. */
  initialSkillPath: string;
}

/** One benchmark implementation: its descriptor and the environment factory. */
export interface BenchmarkDefinition extends BenchmarkDescriptor {
  /** Builds the environment; `splits` (when given) lets envs derive task types from the loaded items. */
  create(config: RunConfig, splits?: Splits, context?: BenchmarkContext): Environment;
  /** The benchmark's own simulated target, when the generic question answering does not fit. */
  simResponder?: SimResponder;
}
