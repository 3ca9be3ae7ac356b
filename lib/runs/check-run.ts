/**
 * A run checked without building anything that runs it: splits loaded and validated, the seed skill read,
 * each role's backend and model resolved, the transport settings, the budget's prices and the benchmark's
 * target check — every refusal naming its field. No model client and no environment is constructed, so the web
 * process validates and estimates a run with this alone; `prepareRun` (lib/runs/prepare.ts, worker and CLI)
 * builds the clients and the environment on top of it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Trust } from "../contracts/config-trust";
import type { RunConfig } from "../contracts/run-config";
import type { SimKnowledge } from "../contracts/sim";
import { checkApiKey, checkPriced, clientModelName, resolveRoles } from "../backends/names";
import { transportOptionsOf, type EnvVars } from "../backends/settings";
import type { Role } from "../engine/ports";
import type { Splits } from "../engine/types";
import {
  benchmarkSplitOptions,
  getBenchmark,
  initialSkillPath,
  loadSplits,
  shortSha256,
  writeRatioSplit,
  type PathGuard,
  type RatioSource,
} from "../envs";
import { loadSimKnowledge } from "../envs/descriptors";
import { AppError } from "../errors";
import { DASHBOARD_SPLITS_DIR, pathGuardFor } from "./trust";

/** Skills larger than this are refused (they would not fit a prompt, and usually are a wrong file). */
export const MAX_SKILL_BYTES = 200 * 1024;

export interface CheckedRun {
  config: RunConfig;
  splits: Splits;
  initialSkill: string;
  /** Where the seed skill came from (a path, or "inline"). */
  skillSource: string;
  /** Each role's canonical backend and the model name its client will carry. */
  roles: Record<Role, { backend: string; model: string }>;
  /** The sim's knowledge of the data's hidden annotations (null when neither role is the sim). */
  simKnowledge: SimKnowledge | null;
  simulated: boolean;
  /** How this run's config and data paths resolve. */
  paths: PathGuard;
  /**
   * Writes a ratio split's files (a reusable split_dir with its manifest) and returns the folder; null for
   * other split modes. Call it once the run is accepted: checking writes nothing.
   */
  materialiseSplits(): string | null;
}

export interface CheckRunOptions {
  config: RunConfig;
  rootDir: string;
  /** "local" (the CLI: any path) or "request" (the dashboard and its worker: allowed roots only). */
  trust: Trust;
  skillText?: string;
  /** Environment variables (callers pass `process.env`); they decide the allowed roots. Default: none. */
  env?: EnvVars;
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

function seedSkillOf(opts: CheckRunOptions, paths: PathGuard): { initialSkill: string; skillSource: string } {
  if (opts.skillText !== undefined) {
    checkSkillSize(opts.skillText, "skill");
    return { initialSkill: opts.skillText, skillSource: "inline" };
  }
  const { config } = opts;
  const skillSource = paths.input("env.skill_init", config.env.skill_init || initialSkillPath(config.env.name));
  return { initialSkill: readSkillFile(skillSource), skillSource };
}

/**
 * Each role's backend and model, its API key when the key can only come from the environment, and the
 * budget's price check (a USD budget needs a known price).
 */
function checkRoles(config: RunConfig, env: EnvVars): CheckedRun["roles"] {
  transportOptionsOf(config.model); // bad transport settings are refused naming their key
  const names = resolveRoles(config.model);
  const role = (r: Role) => {
    const backend = names[r];
    const model = clientModelName(r, config, backend);
    if (backend !== "sim") checkPriced(config, { backend, model: model.resolved, role: r });
    checkApiKey(r, backend, env);
    return { backend, model: model.display };
  };
  return { optimizer: role("optimizer"), target: role("target") };
}

export function checkRun(opts: CheckRunOptions): CheckedRun {
  const { config, rootDir } = opts;
  if (!config.env.name) throw new AppError("INVALID_REQUEST", "env.name: no benchmark chosen", { field: "env.name" });
  const paths = pathGuardFor(opts.trust, rootDir, opts.env ?? {});
  const splits = loadSplits(benchmarkSplitOptions(config, rootDir, paths));
  const skill = seedSkillOf(opts, paths);
  const roles = checkRoles(config, opts.env ?? {});
  const targetProblem = getBenchmark(config.env.name).checkTarget?.(config, roles.target.backend);
  if (targetProblem) throw new AppError("INVALID_REQUEST", targetProblem.message, { field: targetProblem.field });
  const simulated = roles.optimizer.backend === "sim" || roles.target.backend === "sim";
  return {
    config,
    splits,
    ...skill,
    roles,
    simKnowledge: simulated ? loadSimKnowledge(config, splits) : null,
    simulated,
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
