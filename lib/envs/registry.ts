/**
 * The benchmark registry: one entry per implemented benchmark, keyed by canonical name (aliases are
 * resolved through the catalog). Implementations live in their own folders.
 */
import { z } from "zod";
import type { RunConfig } from "../contracts/run-config";
import { buildSimKnowledge, type SimKnowledge } from "../contracts/sim";
import type { Environment } from "../engine/ports";
import type { Splits } from "../engine/types";
import { AppError } from "../errors";
import type { BenchmarkContext, BenchmarkDefinition } from "./benchmark";
import type { PathGuard } from "./common/path-guard";
import { addBenchmarkInfo, canonicalBenchmark } from "./catalog";
import { alfworldBenchmark } from "./alfworld";
import { customBenchmark } from "./custom";
import { docVqaBenchmark } from "./docvqa";
import { liveMathBenchmark } from "./livemath";
import { loadSplits, type LoadSplitsOptions } from "./loader";
import { officeQaBenchmark } from "./officeqa";
import { searchQaBenchmark } from "./searchqa";
import { spreadsheetBenchmark } from "./spreadsheetbench";

const REGISTRY: Record<string, BenchmarkDefinition> = {
  searchqa: searchQaBenchmark,
  livemath: liveMathBenchmark,
  docvqa: docVqaBenchmark,
  officeqa: officeQaBenchmark,
  spreadsheetbench: spreadsheetBenchmark,
  alfworld: alfworldBenchmark,
  custom: customBenchmark,
};

/** What `registerBenchmark` takes: the implementation plus the catalog entry the form and the config loader use. */
export interface BenchmarkRegistration extends BenchmarkDefinition {
  /** One line for menus and the README. */
  title: string;
  /** Other spellings accepted in configs. */
  aliases?: readonly string[];
  /** The benchmark's own `env.*` keys with their defaults (default: none). */
  options?: z.ZodObject;
}

/**
 * Adds a benchmark at run time (README "Adding a benchmark"): configs may then name it in `env.name`,
 * its sample and `initial.md` become readable by dashboard runs, runs build its environment, and the
 * dashboard lists its presets (`configs/<name>/*.yaml`). A name or alias already taken, or a malformed
 * name, is refused. Register it in every process that runs or lists runs. Returns `unregister`.
 */
export function registerBenchmark(reg: BenchmarkRegistration): () => void {
  const fail = (msg: string): never => {
    throw new AppError("INVALID_REQUEST", `registerBenchmark: ${msg}`, { field: "benchmark.name" });
  };
  if (!/^[a-z][a-z0-9_-]*$/.test(reg.name)) fail(`name '${reg.name}' must be lower-case letters, digits, _ and -`);
  const { title, aliases = [], options = z.strictObject({}), ...definition } = reg;
  let removeInfo: () => void = () => {};
  try {
    removeInfo = addBenchmarkInfo({ name: reg.name, aliases, title, options });
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  REGISTRY[reg.name] = definition;
  return () => {
    delete REGISTRY[reg.name];
    removeInfo();
  };
}

/** Canonical names of the benchmarks with an implementation. */
export function listBenchmarks(): string[] {
  return Object.keys(REGISTRY);
}

/** The implementation for a name or alias; unknown → `AppError` listing the known names. */
export function getBenchmark(name: string): BenchmarkDefinition {
  const key = canonicalBenchmark(name) ?? name.trim().toLowerCase();
  const hit = REGISTRY[key];
  if (!hit) {
    throw new AppError("INVALID_REQUEST", `unknown benchmark '${name}'; available: ${listBenchmarks().join(", ")}`, {
      field: "env.name",
    });
  }
  return hit;
}

/**
 * The environment of `config.env.name`; `splits` (optional) lets it derive task types from the loaded
 * items; `context` gives data-reading benchmarks the project root and the environment variables.
 */
export function createEnvironment(config: RunConfig, splits?: Splits, context?: BenchmarkContext): Environment {
  return getBenchmark(config.env.name).create(config, splits, context);
}

/** The split-loader options of `config.env.name` (its sample, row normaliser and split file types). */
export function benchmarkSplitOptions(config: RunConfig, rootDir: string, paths?: PathGuard): LoadSplitsOptions {
  const bench = getBenchmark(config.env.name);
  return {
    config,
    rootDir,
    sample: bench.sample,
    normalise: bench.normaliserFor?.(config) ?? bench.normalise,
    ...(bench.splitFileTypes ? { splitFileTypes: bench.splitFileTypes } : {}),
    ...(paths ? { paths } : {}),
  };
}

/**
 * The three splits of `config.env.name` per `env.split_mode`, normalised and validated by the benchmark;
 * `paths` decides which files the config may name (default: any, as the CLI allows).
 */
export function loadBenchmarkSplits(config: RunConfig, rootDir: string, paths?: PathGuard): Splits {
  return loadSplits(benchmarkSplitOptions(config, rootDir, paths));
}

/**
 * What the simulated model knows: the sim rules of the benchmark's sample plus the hidden annotations
 * of every item in `splits` that carries one; null when the benchmark ships no sample.
 */
export function loadSimKnowledge(config: RunConfig, splits: Splits): SimKnowledge | null {
  const bench = getBenchmark(config.env.name);
  const rules = bench.simRules();
  if (rules.length === 0) return null;
  return buildSimKnowledge(rules, [...splits.train, ...splits.val, ...splits.test], bench.simResponder);
}

/** The benchmark's seed skill (`initial.md`), relative to the project root. */
export function initialSkillPath(name: string): string {
  return getBenchmark(name).initialSkillPath;
}
