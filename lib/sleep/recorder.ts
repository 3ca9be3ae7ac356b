/**
 * The recorder port: how a night reaches a record outside the state folder (the dashboard's database)
 * without the cycle knowing about it. The CLI and the worker inject one; the cycle calls it when the
 * night starts, when it ends (staged, dry run or no tasks) and when it fails. A recorder that throws never
 * fails the night: the staged files and the state folder stay the truth, and one warning line says so.
 */
import type { SleepReport } from "./types";

export interface SplitSizes {
  train: number;
  val: number;
  test: number;
}

export interface NightStart {
  night: number;
  project: string;
  dryRun: boolean;
  backend: string;
  /** Milliseconds since the epoch (the cycle's injected clock). */
  startedAt: number;
}

/** The part of the cycle's outcome a record keeps. */
export interface RecordedOutcome {
  report: SleepReport;
  stagingDir: string;
  adopted: boolean;
  evidencePath: string;
}

export interface NightFinish {
  outcome: RecordedOutcome;
  dryRun: boolean;
  splits: SplitSizes;
  liveSkillPath: string;
  endedAt: number;
}

/** Where a handoff night waits: the prompts to answer and the folder the answers go to. */
export interface HandoffRound {
  dir: string;
  promptsPath: string;
  answersDir: string;
  pending: number;
}

export interface NightFailure {
  message: string;
  /** A handoff round waiting for answers: not a failure, the same command continues it. */
  pending: boolean;
  /** Set with `pending` once the round's prompts are written (the handoff driver records it). */
  handoff?: HandoffRound;
  endedAt: number;
}

export interface NightRecorder {
  started(info: NightStart): Promise<void>;
  finished(info: NightFinish): Promise<void>;
  failed(info: NightFailure): Promise<void>;
}

/** Calls one recorder hook; a failure becomes one warning line, never the night's failure. */
export async function record(
  recorder: NightRecorder | undefined,
  log: (line: string) => void,
  call: (r: NightRecorder) => Promise<void>,
): Promise<void> {
  if (!recorder) return;
  try {
    await call(recorder);
  } catch (err) {
    log(`warning: the night was not recorded in the database: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export function splitSizesOf(tasks: ReadonlyArray<{ split: string; origin: string }>): SplitSizes {
  const real = tasks.filter((t) => t.origin !== "dream");
  return {
    train: real.filter((t) => t.split === "train").length,
    val: real.filter((t) => t.split === "val").length,
    test: real.filter((t) => t.split === "test").length,
  };
}
