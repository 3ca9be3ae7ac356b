/**
 * SkillOpt-Sleep: the nightly companion that improves a coding agent's skills from its own sessions
 * (harvest → mine → replay → consolidate → gate → stage → adopt). The public surface for the CLI, the
 * worker and integrations; every call takes its clock, environment, harvest and backend explicitly.
 */
export {
  loadSleepConfig,
  managedSkillPathOf,
  memoryPathOf,
  stateDirOf,
  SleepConfigSchema,
  type SleepConfig,
} from "./config";
export {
  record,
  splitSizesOf,
  type NightFailure,
  type NightFinish,
  type NightRecorder,
  type NightStart,
  type SplitSizes,
} from "./recorder";
export {
  runSleepCycle,
  handoffDirFor,
  promptRegistryFor,
  type CycleDeps,
  type CycleOptions,
  type CycleOutcome,
} from "./cycle";
export { runHandoffNight, type HandoffOutcome } from "./handoff-night";
export { adoptNight, type AdoptOutcome, type AdoptRequest } from "./adopt-night";
export { sleepStatus, type SleepStatus } from "./status";
export { harvestAndMine, harvestOptionsOf, type HarvestFn } from "./night-tasks";
export { buildSleepBackend, resolveSleepBackend, SLEEP_BACKENDS } from "./backend/build";
export { MockBackend } from "./backend/mock";
export { PendingCalls, SleepBackendError, type SleepBackend } from "./backend/types";
export { StagingError } from "./staging/root";
export { PromptRegistry, PROMPT_NAMES, type PromptDescription } from "./prompts";
export { loadTasksFile, makeTasksPayload, writeTasksFile, TASKS_FORMAT } from "./tasks-file";
export { runExperiment, type ExperimentResult } from "./experiment/run";
export { PERSONAS, type PersonaName } from "./experiment/personas";
export { validateChecks } from "./judges";
export { snakeKeys } from "./keys";
export { SleepState } from "./state";
export type { SleepReport, TaskRecord } from "./types";
