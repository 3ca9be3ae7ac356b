/**
 * Everything a run needs before it starts — splits, environment, seed skill, model clients — built and
 * validated from a run config without writing anything, so bad input fails before any output exists.
 * The CLI and the worker both start runs through here.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { RunConfig } from "../contracts/run-config";
import type { SimKnowledge } from "../contracts/sim";
import { RunPolicy, type RunPolicyOptions } from "../backends/policy/run-policy";
import { createModelClient, resolveRoles } from "../backends/registry";
import type { EnvVars } from "../backends/settings";
import type { Environment, ModelClient } from "../engine/ports";
import type { Splits } from "../engine/types";
import { createEnvironment, getBenchmark, initialSkillPath, loadBenchmarkSplits, loadSimKnowledge } from "../envs";
import { AppError } from "../errors";

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
}

export interface PrepareRunOptions {
  config: RunConfig;
  rootDir: string;
  skillText?: string;
  /** Environment variables, the only source of API keys (callers pass `process.env`). Default: none. */
  env?: EnvVars;
  /** Budget already used by earlier sessions of this run, and retry timing overrides for tests. */
  policy?: Pick<RunPolicyOptions, "spent" | "retry">;
}

/** Reads a skill file: missing, unreadable or oversized files are one-line errors naming the file. */
export function readSkillFile(path: string, field = "env.skill_init"): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new AppError("INVALID_REQUEST", `${field}: cannot read skill file ${path}${code === "ENOENT" ? " (not found)" : ` (${code})`}`, { field });
  }
  checkSkillSize(text, field);
  return text;
}

export function checkSkillSize(text: string, field: string): void {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_SKILL_BYTES) {
    throw new AppError("PAYLOAD_TOO_LARGE", `${field}: the skill is ${Math.round(bytes / 1024)} KB; the limit is 200 KB`, { field });
  }
}

export function prepareRun(opts: PrepareRunOptions): PreparedRun {
  const { config, rootDir } = opts;
  if (!config.env.name) throw new AppError("INVALID_REQUEST", "env.name: no benchmark chosen", { field: "env.name" });
  const splits = loadBenchmarkSplits(config, rootDir);
  let initialSkill: string;
  let skillSource: string;
  if (opts.skillText !== undefined) {
    checkSkillSize(opts.skillText, "skill");
    initialSkill = opts.skillText;
    skillSource = "inline";
  } else {
    const p = config.env.skill_init || initialSkillPath(config.env.name);
    skillSource = isAbsolute(p) ? p : resolve(rootDir, p);
    initialSkill = readSkillFile(skillSource);
  }
  const roles = resolveRoles(config.model);
  const simulated = roles.optimizer === "sim" || roles.target === "sim";
  const simKnowledge = simulated ? loadSimKnowledge(config, splits) : null;
  const policy = new RunPolicy(config, { rootDir, ...opts.policy });
  const ctx = { simKnowledge, env: opts.env ?? {}, run: policy };
  const optimizer = createModelClient("optimizer", config, ctx);
  const targetProblem = getBenchmark(config.env.name).checkTarget?.(config, roles.target);
  if (targetProblem) throw new AppError("INVALID_REQUEST", targetProblem.message, { field: targetProblem.field });
  const warnings: string[] = [];
  return {
    config,
    splits,
    // The optimizer is handed to the benchmark for model-graded metrics (custom's LLM judge).
    env: createEnvironment(config, splits, { rootDir, vars: opts.env ?? {}, optimizer, warn: (m) => warnings.push(m) }),
    warnings,
    initialSkill,
    skillSource,
    optimizer,
    target: createModelClient("target", config, ctx),
    simKnowledge,
    simulated,
    policy,
  };
}
