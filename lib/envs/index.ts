/**
 * Public surface of lib/envs: the registry, the split loader and the two built-in benchmarks.
 */
export {
  benchmarkSplitOptions,
  createEnvironment,
  getBenchmark,
  initialSkillPath,
  listBenchmarks,
  loadBenchmarkSplits,
  loadSimKnowledge,
} from "./registry";
export {
  loadSplits,
  parseSplitRatio,
  writeRatioSplit,
  SPLIT_NAMES,
  type LoadSplitsOptions,
  type RatioSource,
  type RowNormaliser,
} from "./loader";
export { confinedPathGuard, localPathGuard, type PathGuard } from "./common/path-guard";
export { parseCsv, parseJsonl } from "./common/read-items";
export type { BenchmarkContext, BenchmarkDefinition } from "./benchmark";
export {
  createSearchQaEnv,
  searchQaSample,
  searchQaSimRules,
  scoreSearchQa,
  SEARCHQA_FAILURE_TAXONOMY,
} from "./searchqa";
export {
  createLiveMathEnv,
  liveMathSample,
  liveMathSimRules,
  scoreLiveMath,
  LIVEMATH_FAILURE_TAXONOMY,
} from "./livemath";
export { createDocVqaEnv, docVqaSample, docVqaSimRules, scoreDocVqa, DOCVQA_FAILURE_TAXONOMY } from "./docvqa";
export {
  createOfficeQaEnv,
  officeQaSample,
  officeQaSimRules,
  scoreOfficeQa,
  OFFICEQA_FAILURE_TAXONOMY,
} from "./officeqa";
export { createAlfworldEnv, alfworldSample, alfworldSimRules, ALFWORLD_FAILURE_TAXONOMY } from "./alfworld";
export {
  createSpreadsheetEnv,
  spreadsheetSample,
  spreadsheetSimRules,
  SPREADSHEET_FAILURE_TAXONOMY,
} from "./spreadsheetbench";
export { checkSampleIntegrity, type SampleIntegrityInput } from "./common/sample-integrity";
export { createCustomEnv, customSimRules, scoreCustom, CUSTOM_FAILURE_TAXONOMY } from "./custom";
export { describeFingerprint, fingerprintSplits, shortSha256, splitIdsHash } from "./common/fingerprint";
