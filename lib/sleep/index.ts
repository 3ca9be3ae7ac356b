/**
 * SkillOpt-Sleep: the nightly companion that improves a coding agent's skills from its own sessions
 * (harvest → mine → replay → consolidate → gate → stage → adopt). The public surface for the CLI, the
 * worker and integrations; every call takes its clock, environment, harvest and backend explicitly.
 */
export { loadSleepConfig, managedSkillPathOf, type SleepConfig } from "./config";
export { type NightRecorder } from "./recorder";
export { runSleepCycle, handoffDirFor, promptRegistryFor, type CycleDeps, type CycleOutcome } from "./cycle";
export { runHandoffNight } from "./handoff-night";
export { adoptNight } from "./adopt-night";
export { sleepStatus } from "./status";
export { harvestAndMine } from "./night-tasks";
export { buildSleepBackend, resolveSleepBackend } from "./backend/build";
export { MockBackend } from "./backend/mock";
export { SleepBackendError } from "./backend/types";
export { StagingError } from "./staging/root";
export { loadTasksFile, makeTasksPayload, writeTasksFile } from "./tasks-file";
export { runExperiment } from "./experiment/run";
export { PERSONAS, type PersonaName } from "./experiment/personas";
export { snakeKeys } from "./keys";
export type { TaskRecord } from "./types";
