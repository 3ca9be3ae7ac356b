/**
 * The run context: the injected deps plus what every phase derives from the config, the usage tracker
 * and the memoised optimizer call. Every optimizer answer is stored under a key the moment it arrives,
 * so a resumed run replays it instead of paying for it again.
 */
import type { EngineEvent } from "../contracts/events";
import type { RunConfig } from "../contracts/run-config";
import {
  stopRunOf,
  type CheckpointStore,
  type EngineDeps,
  type Environment,
  type Logger,
  type ModelClient,
} from "./ports";
import type { RunPlan } from "./run-plan";
import type { UpdateMode } from "./types";
import { UsageTracker, trackedClient } from "./usage";

export { EngineError, type RunPlan } from "./run-plan";

/** Thrown when the run's AbortSignal fires; the run can be resumed later. */
export class RunCancelledError extends Error {
  constructor() {
    super("run cancelled");
    this.name = "RunCancelledError";
  }
}

export type OptimizerAnswer = { ok: true; text: string } | { ok: false; error: string };
type StoredAnswer = OptimizerAnswer & { usage?: { promptTokens: number; completionTokens: number } };

export interface OptimizerCall {
  /** Store key of the memo, e.g. `steps/step_0001/calls/analyst_fail_000.json`. */
  key: string;
  stage: string;
  system: string;
  user: string;
  maxTokens: number;
  reasoningEffort?: string | null;
}

export interface RunContext {
  cfg: RunConfig;
  plan: RunPlan;
  env: Environment;
  store: CheckpointStore;
  clock: EngineDeps["clock"];
  log: Logger;
  usage: UsageTracker;
  /** Rollout result keys read or written in this session: their usage is already counted. */
  rolloutKeysSeen: Set<string>;
  optimizer: ModelClient;
  target: ModelClient;
  signal?: AbortSignal;
  reviewer?: EngineDeps["reviewer"];
  rollouts?: EngineDeps["rollouts"];
  emit(event: EngineEvent): Promise<void>;
  /** Throws RunCancelledError when the run was cancelled; called between phases. */
  checkAbort(): void;
  /** A memoised optimizer call; failures other than cancellation come back as data. */
  askOptimizer(call: OptimizerCall): Promise<OptimizerAnswer>;
}

const silentLogger: Logger = { info: () => {}, warn: () => {} };

export function createContext(deps: EngineDeps, plan: RunPlan): RunContext {
  const usage = new UsageTracker();
  const optimizer = trackedClient(deps.optimizer, usage);
  const target = trackedClient(deps.target, usage);
  const log = deps.logger ?? silentLogger;
  const checkAbort = () => {
    if (deps.signal?.aborted) throw new RunCancelledError();
  };
  const ctx: RunContext = {
    cfg: deps.config,
    plan,
    env: deps.env,
    store: deps.store,
    clock: deps.clock,
    log,
    usage,
    rolloutKeysSeen: new Set(),
    optimizer,
    target,
    signal: deps.signal,
    reviewer: deps.reviewer,
    rollouts: deps.rollouts,
    emit: async (event) => {
      await deps.events.emit(event);
    },
    checkAbort,
    askOptimizer: async (call) => {
      const memo = await deps.store.getJson<StoredAnswer>(call.key);
      if (memo) {
        // A replayed answer still counts toward the run's usage, so totals match an uninterrupted run.
        if (memo.usage) usage.record(call.stage, memo.usage);
        return memo.ok ? { ok: true, text: memo.text } : { ok: false, error: memo.error };
      }
      checkAbort();
      let answer: StoredAnswer;
      try {
        const res = await optimizer.complete({
          role: "optimizer",
          stage: call.stage,
          system: call.system,
          messages: [{ role: "user", content: call.user }],
          maxTokens: call.maxTokens,
          reasoningEffort: call.reasoningEffort === undefined ? globalEffort(deps.config) : call.reasoningEffort,
          signal: deps.signal,
        });
        answer = { ok: true, text: res.text, usage: res.usage };
      } catch (err) {
        checkAbort();
        if (stopRunOf(err)) throw err;
        // Stored like an answer: the resumed run takes the same fallback as the uninterrupted one would.
        answer = { ok: false, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
        log.warn(`optimizer call ${call.stage} failed; the step falls back (${call.key})`);
      }
      await deps.store.putJson(call.key, answer);
      return answer.ok ? { ok: true, text: answer.text } : { ok: false, error: answer.error };
    },
  };
  return ctx;
}

/**
 * Waits for a write-behind store's queued writes when a run ends on an error: that error is the one to
 * report, so a failed write is logged here rather than thrown over it.
 */
export async function settleStore(ctx: RunContext): Promise<void> {
  try {
    await ctx.store.flush?.();
  } catch (err) {
    ctx.log.warn(`checkpoint store: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The global reasoning effort ("" → none). */
export function globalEffort(cfg: RunConfig): string | null {
  return cfg.model.reasoning_effort.trim() || null;
}

/** Max tokens of analyst and merge calls (full rewrites return whole documents). */
export function analystMaxTokens(mode: UpdateMode): number {
  return mode === "full_rewrite_minibatch" ? 64000 : 16384;
}

export const pad = (n: number, width: number): string => String(n).padStart(width, "0");
export const stepDir = (step: number): string => `steps/step_${pad(step, 4)}`;
export const skillKey = (step: number): string => `skills/skill_v${pad(step, 4)}.md`;
export const epochDir = (kind: "slow_update" | "meta_skill", epoch: number): string => `${kind}/epoch_${pad(epoch, 2)}`;
