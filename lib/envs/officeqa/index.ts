/**
 * OfficeQA: questions about a corpus of office documents (treasury bulletins, reports, budget tables),
 * answered by an agent that searches and reads the documents with local tools; scored by exact match of
 * normalised numbers (hard) and token F1 (soft).
 */
import type { RunConfig } from "../../contracts/run-config";
import type { Environment } from "../../engine/ports";
import type { Item, Splits } from "../../engine/types";
import { AppError } from "../../errors";
import type { BenchmarkContext, BenchmarkDefinition } from "../benchmark";
import { benchmarkOptions, type BenchmarkOptions } from "../common/env-options";
import { listCorpusFiles, resolveCorpusRoots } from "./corpus";
import { OFFICEQA_SAMPLE_ROWS, officeQaDescriptor, officeQaSample } from "./descriptor";
import { rolloutOfficeQa, type OfficeQaRuntime } from "./rollout";
import { DEFAULT_SEARCH_URL, type SearchDeps, type SearchSettings } from "./search";
import { createOfficeQaSimResponder, probesFromItems } from "./sim-agent";
import { officeQaBrief } from "../common/analyst-briefs";

export { officeQaSample, officeQaSimRules } from "./descriptor";

/** The error analyst's failure categories for OfficeQA. */
export const OFFICEQA_FAILURE_TAXONOMY = [
  "retrieval_miss",
  "evidence_miss",
  "operand_error",
  "calculation_error",
  "answer_format",
  "other",
];

/** Sorted distinct task types (the items' categories, e.g. easy/hard). */
export function officeQaTaskTypes(items: readonly Item[]): string[] {
  const types = new Set<string>();
  for (const item of items) if (typeof item.task_type === "string" && item.task_type !== "") types.add(item.task_type);
  return types.size === 0 ? ["officeqa"] : [...types].sort();
}

/** Injected I/O for the web-search mode (tests pass a fetch bound to a local server and an instant sleep). */
export type OfficeQaDeps = Partial<SearchDeps>;

function searchSettings(
  o: BenchmarkOptions<"officeqa">,
  vars: Readonly<Record<string, string | undefined>>,
): SearchSettings {
  const authVar = o.search_auth_env;
  const auth = authVar === "" ? "" : (vars[authVar] ?? "");
  return {
    url: o.search_api_url.trim() || (vars.OFFICEQA_SEARCH_API_URL ?? "").trim() || DEFAULT_SEARCH_URL,
    auth: auth.trim() === "" ? null : auth,
    provider: o.search_provider,
    maxResults: o.search_max_num_results,
    timeoutSec: o.search_timeout_seconds,
    maxQueriesPerTurn: o.max_queries_per_turn,
  };
}

function buildRuntime(config: RunConfig, context: BenchmarkContext | undefined, deps: OfficeQaDeps): OfficeQaRuntime {
  const options = benchmarkOptions(config, "officeqa");
  const { search_mode: mode, max_tool_turns: maxToolTurns } = options;
  if (mode === "custom_search") {
    const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
    return {
      mode,
      maxToolTurns,
      search: searchSettings(options, context?.vars ?? {}),
      deps: { fetch: deps.fetch ?? ((...args) => fetch(...args)), sleep: deps.sleep ?? sleep },
    };
  }
  if (mode !== "offline") {
    throw new AppError(
      "INVALID_REQUEST",
      `officeqa: env.search_mode '${mode}' is not available in this version; use offline (local document tools) or custom_search`,
      { field: "env.search_mode" },
    );
  }
  const roots = resolveCorpusRoots({
    rootDir: context?.rootDir ?? ".",
    dataDirs: options.data_dirs,
    vars: context?.vars ?? {},
    sample: config.env.split_mode === "sample",
    ...(context?.paths ? { paths: context.paths } : {}),
  });
  return { mode, roots, files: listCorpusFiles(roots), useTools: options.use_local_tools, maxToolTurns };
}

/**
 * The OfficeQA environment for a run. Resolves the corpus (offline mode) now, so a run with no
 * documents, or with a search mode this version lacks, fails before any model call.
 */
export function createOfficeQaEnv(
  config: RunConfig,
  splits?: Splits,
  context?: BenchmarkContext,
  deps: OfficeQaDeps = {},
): Environment {
  const runtime = buildRuntime(config, context, deps);
  const source = splits ?? officeQaSample();
  const taskTypes = officeQaTaskTypes([...source.train, ...source.val, ...source.test]);
  return {
    name: "officeqa",
    taskTypes: () => [...taskTypes],
    rollout: (input) => rolloutOfficeQa(config, runtime, input),
    failureTaxonomy: () => [...OFFICEQA_FAILURE_TAXONOMY],
    analystBrief: () => officeQaBrief(OFFICEQA_FAILURE_TAXONOMY),
  };
}

/** Registry entry: the descriptor, the environment and the simulated agent. */
export const officeQaBenchmark: BenchmarkDefinition = {
  ...officeQaDescriptor,
  create: (config, splits, context) => createOfficeQaEnv(config, splits, context),
  simResponder: createOfficeQaSimResponder(probesFromItems(OFFICEQA_SAMPLE_ROWS)),
};
