/**
 * Public surface of lib/envs for every process, the web's included: the benchmark descriptors (data,
 * split loading, seed skills, estimates), the split loader and the pieces other layers use. Environments
 * (rollout and scoring) come from ./registry, which only the worker and the CLI import.
 */
export {
  benchmarkSplitOptions,
  getBenchmark,
  initialSkillPath,
  listBenchmarks,
  loadBenchmarkSplits,
} from "./descriptors";
export { loadSplits, writeRatioSplit, type RatioSource } from "./loader";
export { confinedPathGuard, localPathGuard, type PathGuard } from "./common/path-guard";
export { parseCsv, parseJsonl } from "./common/read-items";
export { searchQaSample, searchQaSimRules } from "./searchqa/descriptor";
export { liveMathSample, liveMathSimRules } from "./livemath/descriptor";
export { describeFingerprint, fingerprintSplits, shortSha256 } from "./common/fingerprint";
