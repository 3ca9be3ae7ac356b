/**
 * The service entry for starting a run from the dashboard: presets, uploads, the backend catalog,
 * validation, the estimate and its warnings, and creation. Routes reach run setup (which builds
 * environments and reads benchmarks) only through here; .dependency-cruiser.cjs enforces it.
 */
export { listBackends } from "../backends/catalog";
export { createRunFromRequest, validateRunRequest } from "../runs/create";
export { datasetFingerprint } from "../runs/dataset";
export { estimateRun } from "../runs/estimate";
export { listPresets } from "../runs/presets";
export { leakageReport } from "../runs/run-leakage";
export { simCoverage } from "../runs/sim-coverage";
export { preflightSplitWarning } from "../runs/split-warning";
export { uploadDataset } from "../runs/uploads";
