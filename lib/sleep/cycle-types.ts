/**
 * The types of the nightly cycle, apart from its code so the staging step can share them without an
 * import cycle.
 */
import type { SleepBackend } from "./backend/types";
import type { SleepConfig } from "./config";
import type { Evidence } from "./evidence";
import type { HarvestFn } from "./night-tasks";
import type { PromptRegistry } from "./prompts";
import type { NightRecorder, SplitSizes } from "./recorder";
import type { SessionDigest } from "./session-digest";
import type { SleepState } from "./state";
import type { SleepReport, TaskRecord } from "./types";

export interface CycleDeps {
  config: SleepConfig;
  /** Wall clock in milliseconds (timestamps, staging folder names, latency). */
  now: () => number;
  /** Environment variables (keys for the backends, prompt-override path, feedback phrase lists). */
  env: Readonly<Record<string, string | undefined>>;
  harvest: HarvestFn;
  /** A prebuilt backend (the handoff driver, tests); default: built from the config. */
  backend?: SleepBackend;
  prompts?: PromptRegistry;
  /** `process.platform` of the machine (harvest's default roots). */
  platform?: string;
  /** Warnings and, with `progress`, phase lines (the CLI prints them to stderr). */
  log?: (line: string) => void;
  /** Where the night is recorded besides the state folder (the dashboard's database); optional. */
  recorder?: NightRecorder;
}

export interface CycleOptions {
  /** Tasks to consolidate instead of harvesting (a reviewed tasks file, the handoff snapshot). */
  seedTasks?: TaskRecord[];
  /** Digests to mine instead of harvesting (the handoff snapshot). */
  digests?: SessionDigest[];
  dryRun?: boolean;
}

export interface CycleOutcome {
  report: SleepReport;
  /** The staged night ("" for a dry run or a night with no tasks). */
  stagingDir: string;
  adopted: boolean;
  adoptedPaths: string[];
  evidencePath: string;
  stagedSkills: string[];
}

export interface CycleContext {
  deps: CycleDeps;
  cfg: SleepConfig;
  backend: SleepBackend;
  prompts: PromptRegistry;
  state: SleepState;
  night: number;
  started: string;
  evidence: Evidence;
  evidencePath: string;
  stagingDir: string;
  progress: (line: string) => void;
  /** The night's real tasks per split, once known. */
  splits?: SplitSizes;
}
