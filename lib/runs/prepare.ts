/**
 * Everything a run needs before it starts — splits, environment, seed skill, model clients — built and
 * validated from a run config without writing anything, so bad input fails before any output exists.
 * The CLI, the dashboard's create/estimate and the worker all start runs through here; `trust` decides
 * which files the config may name (any for the CLI, the allowed roots for a run from the dashboard).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Trust } from "../contracts/config-trust";
import type { RunConfig } from "../contracts/run-config";
import type { SimKnowledge } from "../contracts/sim";
import { RunPolicy, type RunPolicyOptions } from "../backends/policy/run-policy";
import { createModelClient, resolveRoles } from "../backends/registry";
import type { EnvVars } from "../backends/settings";
import type { Environment, ModelClient } from "../engine/ports";
import type { Splits } from "../engine/types";
import {
  benchmarkSplitOptions,
  createEnvironment,
  getBenchmark,
  initialSkillPath,
  loadSplits,
  loadSimKnowledge,
  shortSha256,
  writeRatioSplit,
  type PathGuard,
  type RatioSource,
} from "../envs";
import { AppError } from "../errors";
import { DASHBOARD_SPLITS_DIR, pathGuardFor } from "./trust";

/** Skills larger than this are refused (they would not fit a prompt, and usually are a wrong file). */
export const MAX_SKILL_BYTES = 200 * 1024;

export interface PreparedRun {
  config: RunConfig;
  splits: Splits;
  env: Environment;
  initialSkill: string;
  /** Where the seed skill came from (a path, or "inline"). */
  skillSource: string;
  optimizer: ModelClient;
  target: ModelClient;
  simKnowledge: SimKnowledge | null;
  simulated: boolean;
  /** Policy state both clients share: one budget, usage per role and stage (`policy.stats()`), the cache. */
  policy: RunPolicy;
  /** What the user must be told about how this run executes (the CLI prints them, the worker logs them). */
  warnings: string[];
  /** How this run's config and data paths resolve. */
  paths: PathGuard;
  /**
   * Writes a ratio split's files (a reusable split_dir with its manifest) and returns the folder; null for
   * other split modes. Call it once the run is accepted: preparing writes nothing.
   */
  materialiseSplits(): string | null;
}

export interface PrepareRunOptions {
  config: RunConfig;
  rootDir: string;
  /** "local" (the CLI: any path) or "request" (the dashboard and its worker: allowed roots only). */
  trust: Trust;
  skillText?: string;
  /** Environment variables, the only source of API keys (callers pass `process.env`). Default: none. */
  env?: EnvVars;
  /** Budget already used by earlier sessions of this run, and retry timing overrides for tests. */
  policy?: Pick<RunPolicyOptions, "spent" | "retry" | "budget">;
}

/** Reads a skill file: missing, unreadable or oversized files are one-line errors naming the file. */
export function readSkillFile(path: string, field = "env.skill_init"): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new AppError(
      "INVALID_REQUEST",
      `${field}: cannot read skill file ${path}${code === "ENOENT" ? " (not found)" : ` (${code})`}`,
      { field },
    );
  }
  checkSkillSize(text, field);
  return text;
}

export function checkSkillSize(text: string, field: string): void {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_SKILL_BYTES) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `${field}: the skill is ${Math.round(bytes / 1024)} KB; the limit is 200 KB`,
      { field },
    );
  }
}

/** A dashboard run's ratio split folder: under .skillopt/splits/, named by its source file's content. */
function dashboardSplitDir(rootDir: string, config: RunConfig, meta: RatioSource): string {
  const name = `${config.env.name || "dataset"}_${meta.ratio.replaceAll(":", "-")}_seed${meta.seed}_${shortSha256(readFileSync(meta.source))}`;
  return join(rootDir, DASHBOARD_SPLITS_DIR, name);
}

export function prepareRun(opts: PrepareRunOptions): PreparedRun {
  const { config, rootDir } = opts;
  if (!config.env.name) throw new AppError("INVALID_REQUEST", "env.name: no benchmark chosen", { field: "env.name" });
  const vars = opts.env ?? {};
  const paths = pathGuardFor(opts.trust, rootDir, vars);
  const splits = loadSplits(benchmarkSplitOptions(config, rootDir, paths));
  let initialSkill: string;
  let skillSource: string;
  if (opts.skillText !== undefined) {
    checkSkillSize(opts.skillText, "skill");
    initialSkill = opts.skillText;
    skillSource = "inline";
  } else {
    skillSource = paths.input("env.skill_init", config.env.skill_init || initialSkillPath(config.env.name));
    initialSkill = readSkillFile(skillSource);
  }
  const roles = resolveRoles(config.model);
  const simulated = roles.optimizer === "sim" || roles.target === "sim";
  const simKnowledge = simulated ? loadSimKnowledge(config, splits) : null;
  const policy = new RunPolicy(config, { rootDir, ...opts.policy });
  const ctx = { simKnowledge, env: vars, run: policy };
  const optimizer = createModelClient("optimizer", config, ctx);
  const targetProblem = getBenchmark(config.env.name).checkTarget?.(config, roles.target);
  if (targetProblem) throw new AppError("INVALID_REQUEST", targetProblem.message, { field: targetProblem.field });
  const warnings: string[] = [];
  return {
    config,
    splits,
    // The optimizer is handed to the benchmark for model-graded metrics (custom's LLM judge).
    env: createEnvironment(config, splits, { rootDir, vars, optimizer, paths, warn: (m) => warnings.push(m) }),
    warnings,
    initialSkill,
    skillSource,
    optimizer,
    target: createModelClient("target", config, ctx),
    simKnowledge,
    simulated,
    policy,
    paths,
    materialiseSplits: () => {
      if (config.env.split_mode !== "ratio") return null;
      // A dashboard run never chooses where it writes: always under .skillopt/splits/.
      // Fresh options: a benchmark's row normaliser may remember the rows it has seen (custom's duplicate check).
      const again = benchmarkSplitOptions(config, rootDir, paths);
      return writeRatioSplit(
        again,
        opts.trust === "request" ? (meta) => dashboardSplitDir(rootDir, config, meta) : undefined,
      );
    },
  };
}
