/**
 * Public surface of lib/envs: the benchmark registry (six built-in benchmarks and custom data), the split
 * loader and the pieces other layers use.
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
export { loadSplits, writeRatioSplit, type RatioSource } from "./loader";
export { confinedPathGuard, localPathGuard, type PathGuard } from "./common/path-guard";
export { parseCsv, parseJsonl } from "./common/read-items";
export { searchQaSample, searchQaSimRules } from "./searchqa";
export { liveMathSample, liveMathSimRules } from "./livemath";
export { describeFingerprint, fingerprintSplits, shortSha256 } from "./common/fingerprint";
