/**
 * SpreadsheetBench: the target writes a Python script that edits a workbook; the script runs in the
 * bubblewrap sandbox on every test case and the answer cells are compared with the gold workbooks.
 */
import path from "node:path";
import type { RunConfig } from "../../contracts/run-config";
import type { Environment } from "../../engine/ports";
import type { BenchmarkContext, BenchmarkDefinition } from "../benchmark";
import { spreadsheetDescriptor, spreadsheetOptions } from "./descriptor";
import { CaseRunner } from "./evaluate";
import { chooseIsolation, probeIsolation, unsandboxedWarning } from "./bwrap";
import { PYTHON_DIR, pythonHasModule, resolvePython, SPREADSHEET_DIR } from "./python";
import { rolloutSpreadsheet, type SpreadsheetRuntime } from "./rollout";
import { spreadsheetSimResponder } from "./sim";
import { XlsxToolPool } from "./tool-pool";
import { spreadsheetBrief } from "../common/analyst-briefs";

export { spreadsheetSample, spreadsheetSimRules } from "./descriptor";

/** The error analyst's failure categories for SpreadsheetBench. */
export const SPREADSHEET_FAILURE_TAXONOMY = [
  "rule_missing",
  "rule_wrong",
  "rule_ignored",
  "data_exploration",
  "code_error",
  "other",
];

/** Task types of the released benchmark. */
export const SPREADSHEET_TASK_TYPES = ["cell_level", "sheet_level"];

/** Folder of the built-in sample (its `spreadsheet/<id>/` task folders). */
export const SPREADSHEET_SAMPLE_DIR = path.join(SPREADSHEET_DIR, "sample");

/**
 * The SpreadsheetBench environment. Resolves the Python interpreter and the sandbox once, so a machine
 * without either fails here, before any model call: an `AppError` with the install hint (Python with
 * openpyxl; bubblewrap, unless the run sets `env.allow_unsandboxed: true`, which `context.warn` then
 * reports). In `split_mode: sample` the task folders are the built-in sample's, whatever `data_root` says.
 */
export function createSpreadsheetEnv(
  config: RunConfig,
  context: BenchmarkContext = { rootDir: process.cwd(), vars: {} },
): Environment {
  const options = spreadsheetOptions(config);
  const python = resolvePython(context.vars);
  const protect = [context.rootDir, context.vars.HOME ?? ""];
  const isolation = chooseIsolation(
    probeIsolation({ python, vars: context.vars, pythonDir: PYTHON_DIR, protect }),
    options.allow_unsandboxed,
  );
  if (isolation.kind === "none") context.warn?.(unsandboxedWarning(isolation.reason));
  const settings = {
    python,
    vars: context.vars,
    timeoutSec: options.sandbox_timeout,
    memoryMb: options.memory_mb,
    pythonDir: PYTHON_DIR,
    isolation,
  };
  const dataRoot =
    config.env.split_mode === "sample"
      ? SPREADSHEET_SAMPLE_DIR
      : (context.paths?.input("env.data_root", options.data_root) ?? path.resolve(context.rootDir, options.data_root));
  const tools = new XlsxToolPool(settings, { size: 2, readable: [dataRoot] });
  const rt: SpreadsheetRuntime = {
    config,
    mode: options.mode,
    dataRoot,
    ...(context.paths ? { paths: context.paths } : {}),
    settings,
    runner: new CaseRunner(settings, tools, options.exec_cache),
    tools,
    previews: new Map(),
    pandas: pythonHasModule(settings.python, "pandas", context.vars),
  };
  return {
    name: "spreadsheetbench",
    taskTypes: () => [...SPREADSHEET_TASK_TYPES],
    rollout: (input) => rolloutSpreadsheet(rt, input),
    failureTaxonomy: () => [...SPREADSHEET_FAILURE_TAXONOMY],
    analystBrief: () => spreadsheetBrief(SPREADSHEET_FAILURE_TAXONOMY),
  };
}

/** Registry entry: the descriptor, the environment and the simulated target. */
export const spreadsheetBenchmark: BenchmarkDefinition = {
  ...spreadsheetDescriptor,
  create: (config, _splits, context) => createSpreadsheetEnv(config, context),
  simResponder: spreadsheetSimResponder,
};
