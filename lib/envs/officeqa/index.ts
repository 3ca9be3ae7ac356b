/**
 * OfficeQA: questions about a corpus of office documents (treasury bulletins, reports, budget tables),
 * answered by an agent that searches and reads the documents with local tools; scored by exact match of
 * normalised numbers (hard) and token F1 (soft).
 */
import type { RunConfig } from "../../contracts/run-config";
import type { SimRule } from "../../contracts/sim";
import type { Environment } from "../../engine/ports";
import type { Item, Splits } from "../../engine/types";
import { AppError } from "../../errors";
import type { BenchmarkContext, BenchmarkDefinition } from "../benchmark";
import { envFlag } from "../common/env-options";
import { sampleSplits, simRules } from "../common/sample-files";
import { listCorpusFiles, resolveCorpusRoots } from "./corpus";
import { normaliseOfficeQaRow } from "./normalise";
import { rolloutOfficeQa } from "./rollout";
import sampleTest from "./sample/test/items.json";
import sampleTrain from "./sample/train/items.json";
import sampleVal from "./sample/val/items.json";
import sampleRules from "./sample/sim-rules.json";
import { createOfficeQaSimResponder, probesFromItems } from "./sim-agent";

export { extractOfficeQaAnswer, normaliseOfficeQaAnswer, officeQaExactMatch, officeQaF1, scoreOfficeQa } from "./evaluate";
export { OFFICEQA_TOOLS_SYSTEM_BASE, OFFICEQA_PLAIN_SYSTEM_BASE } from "./prompt";

/** The error analyst's failure categories for OfficeQA. */
export const OFFICEQA_FAILURE_TAXONOMY = ["retrieval_miss", "evidence_miss", "operand_error", "calculation_error", "answer_format", "other"];

function envOption<T>(config: RunConfig, key: string, ok: (v: unknown) => v is T, fallback: T): T {
  const value = (config.env as Record<string, unknown>)[key];
  return ok(value) ? value : fallback;
}
const isPositiveInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0;
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");

/** Sorted distinct task types (the items' categories, e.g. easy/hard). */
export function officeQaTaskTypes(items: readonly Item[]): string[] {
  const types = new Set<string>();
  for (const item of items) if (typeof item.task_type === "string" && item.task_type !== "") types.add(item.task_type);
  return types.size === 0 ? ["officeqa"] : [...types].sort();
}

/**
 * The OfficeQA environment for a run. Resolves the corpus now, so a run with no documents (or an
 * unavailable search mode) fails before any model call.
 */
export function createOfficeQaEnv(config: RunConfig, splits?: Splits, context?: BenchmarkContext): Environment {
  const mode = envOption(config, "search_mode", (v): v is string => typeof v === "string", "offline");
  if (mode !== "offline") {
    throw new AppError(
      "INVALID_REQUEST",
      `officeqa: env.search_mode '${mode}' is not available in this version; use search_mode: offline (local document tools)`,
      { field: "env.search_mode" },
    );
  }
  const rootDir = context?.rootDir ?? ".";
  const roots = resolveCorpusRoots({
    rootDir,
    dataDirs: envOption(config, "data_dirs", isStringList, []),
    vars: context?.vars ?? {},
    sample: config.env.split_mode === "sample",
  });
  const runtime = {
    roots,
    files: listCorpusFiles(roots),
    useTools: envFlag(config, "use_local_tools", true),
    maxToolTurns: envOption(config, "max_tool_turns", isPositiveInt, 24),
  };
  const source = splits ?? officeQaSample();
  const taskTypes = officeQaTaskTypes([...source.train, ...source.val, ...source.test]);
  return {
    name: "officeqa",
    taskTypes: () => [...taskTypes],
    rollout: (input) => rolloutOfficeQa(config, runtime, input),
    failureTaxonomy: () => [...OFFICEQA_FAILURE_TAXONOMY],
  };
}

/** The built-in offline sample (18/12/13 questions over the documents in sample/docs). */
export function officeQaSample(): Splits {
  return sampleSplits({ train: sampleTrain, val: sampleVal, test: sampleTest });
}

/** The sample's sim rules (6 real, 2 harmful distractors). */
export function officeQaSimRules(): SimRule[] {
  return simRules(sampleRules);
}

/** Registry descriptor. */
export const officeQaBenchmark: BenchmarkDefinition = {
  name: "officeqa",
  create: (config, splits, context) => createOfficeQaEnv(config, splits, context),
  sample: officeQaSample,
  simRules: officeQaSimRules,
  simResponder: createOfficeQaSimResponder(probesFromItems([...sampleTrain, ...sampleVal, ...sampleTest] as Array<Record<string, unknown>>)),
  normalise: normaliseOfficeQaRow,
  splitFileTypes: ["csv", "json"],
  initialSkillPath: "lib/envs/officeqa/initial.md",
};
