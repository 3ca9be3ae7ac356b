/**
 * The benchmark descriptors, web-safe: one entry per implemented benchmark, keyed by canonical name
 * (aliases resolve through the catalog), plus those registered at run time. The dashboard loads data,
 * plans splits, reads seed skills and estimates with these alone; environments (rollout, scoring) are
 * built by lib/envs/registry.ts, which only the worker and the CLI load.
 */
import { z } from "zod";
import type { RunConfig } from "../contracts/run-config";
import { buildSimKnowledge, type SimKnowledge, type SimResponder } from "../contracts/sim";
import type { Splits } from "../engine/types";
import { AppError } from "../errors";
import { alfworldDescriptor } from "./alfworld/descriptor";
import type { BenchmarkDefinition, BenchmarkDescriptor } from "./benchmark";
import { addBenchmarkInfo, canonicalBenchmark } from "./catalog";
import type { PathGuard } from "./common/path-guard";
import { customDescriptor } from "./custom/descriptor";
import { docVqaDescriptor } from "./docvqa/descriptor";
import { liveMathDescriptor } from "./livemath/descriptor";
import { loadSplits, type LoadSplitsOptions } from "./loader";
import { officeQaDescriptor } from "./officeqa/descriptor";
import { searchQaDescriptor } from "./searchqa/descriptor";
import { spreadsheetDescriptor } from "./spreadsheetbench/descriptor";

const BUILT_IN: Record<string, BenchmarkDescriptor> = {
  searchqa: searchQaDescriptor,
  livemath: liveMathDescriptor,
  docvqa: docVqaDescriptor,
  officeqa: officeQaDescriptor,
  spreadsheetbench: spreadsheetDescriptor,
  alfworld: alfworldDescriptor,
  custom: customDescriptor,
};

/**
 * Benchmarks registered at run time, whole: the registry builds their environments from here. One map per
 * process (globalThis), shared by every copy of this module the dashboard's bundles carry.
 */
const g = globalThis as unknown as { __skilloptBenchmarks?: Map<string, BenchmarkDefinition> };
const REGISTERED = (g.__skilloptBenchmarks ??= new Map<string, BenchmarkDefinition>());

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
 * name, is refused. Every process loads the same registrations (SKILLOPT_EXTENSIONS). Returns `unregister`.
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
  REGISTERED.set(reg.name, definition);
  return () => {
    REGISTERED.delete(reg.name);
    removeInfo();
  };
}

/** Canonical names of the benchmarks with an implementation. */
export function listBenchmarks(): string[] {
  return [...Object.keys(BUILT_IN), ...REGISTERED.keys()];
}

/** The canonical name a name or alias means (lower-cased when the catalog does not know it). */
const keyOf = (name: string) => canonicalBenchmark(name) ?? name.trim().toLowerCase();

/** The registered benchmark a name means, with its environment factory; null for built-ins and unknown names. */
export function findRegisteredBenchmark(name: string): BenchmarkDefinition | null {
  return REGISTERED.get(keyOf(name)) ?? null;
}

/** The descriptor for a name or alias; unknown → `AppError` listing the known names. */
export function getBenchmark(name: string): BenchmarkDescriptor {
  const key = keyOf(name);
  const hit = REGISTERED.get(key) ?? BUILT_IN[key];
  if (!hit) {
    throw new AppError("INVALID_REQUEST", `unknown benchmark '${name}'; available: ${listBenchmarks().join(", ")}`, {
      field: "env.name",
    });
  }
  return hit;
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
 * of every item in `splits` that carries one (and the benchmark's own simulated target, `respond`, which
 * the registry passes); null when the benchmark ships no sample.
 */
export function loadSimKnowledge(config: RunConfig, splits: Splits, respond?: SimResponder): SimKnowledge | null {
  const rules = getBenchmark(config.env.name).simRules();
  if (rules.length === 0) return null;
  return buildSimKnowledge(rules, [...splits.train, ...splits.val, ...splits.test], respond);
}

/** The benchmark's seed skill (`initial.md`), relative to the project root. */
export function initialSkillPath(name: string): string {
  return getBenchmark(name).initialSkillPath;
}
