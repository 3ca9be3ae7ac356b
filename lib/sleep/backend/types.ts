/**
 * What a night needs from a model (spec D.10): a rollout (`attempt`, with real tools when a check asks
 * for one), a judge for rubric tasks, a reflect step that proposes edits, and a free-form optimizer call
 * (the LLM miner, contrastive reflection). Rule and exact judging are local and never reach a model.
 */
import type { Evidence } from "../evidence";
import type { JudgeScore } from "../judges";
import type { EditRecord, ReplayResult, TaskRecord } from "../types";

export interface ReflectInput {
  failures: Array<[TaskRecord, ReplayResult]>;
  successes: Array<[TaskRecord, ReplayResult]>;
  skill: string;
  memory: string;
  editBudget: number;
  /** Which document the edits are for. */
  target: "skill" | "memory";
}

export interface SleepBackend {
  /** `mock`, a backend name, or `target=X/optimizer=Y` for a dual setup. */
  readonly name: string;
  readonly model: string;
  /** Where calls and replays are logged; the cycle attaches the night's log. */
  evidence: Evidence;
  /** The user's free-text house rules, given to reflect as a prior. */
  preferences: string;
  /** The optimizer's last raw reflect reply ("" when there was none). */
  lastReflectRaw: string;
  /** The last model-call error that was absorbed (an empty answer was used instead). */
  lastCallError: string;
  attempt(task: TaskRecord, skill: string, memory: string, sampleId?: number): Promise<string>;
  /** Runs the task with the named tools available; returns the answer and the tools actually called. */
  attemptWithTools(
    task: TaskRecord,
    skill: string,
    memory: string,
    tools: readonly string[],
  ): Promise<{ response: string; called: string[] }>;
  /** Judges tasks that need a model (rubric, no reference); local kinds are scored by the caller. */
  judge(task: TaskRecord, response: string): Promise<JudgeScore>;
  reflect(input: ReflectInput): Promise<EditRecord[]>;
  /** A free-form optimizer prompt → the raw reply. */
  call(prompt: string, opts: { maxTokens: number; kind: string }): Promise<string>;
  tokensUsed(): number;
  /** Identifies the resolved backends and models, for the model-change warning (no credentials). */
  key(): string;
  /** Model calls recorded but not yet answered (the handoff backend); 0 for every other backend. */
  pendingCount(): number;
}

/** The night cannot continue until the handoff prompts are answered (spec D.11). */
export class PendingCalls extends Error {
  constructor(readonly pending: number) {
    super(`${pending} model call(s) are waiting for handoff answers`);
    this.name = "PendingCalls";
  }
}

/** A backend that cannot work at all (a missing CLI, bad credentials): the night stops, nothing is staged. */
export class SleepBackendError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SleepBackendError";
  }
}
