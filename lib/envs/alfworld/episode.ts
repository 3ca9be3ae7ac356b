/**
 * The bookkeeping of one ALFWorld episode and how a finished one is scored: won → hard = soft = 1; lost →
 * a failure reason that says how it ended plus what went wrong; failed target calls → an unscored
 * trajectory (error / timeout) that keeps the conversation.
 */
import type { RolloutInput } from "../../engine/ports";
import type { ConversationEntry, Trajectory } from "../../engine/types";
import type { CallFailureStatus, TargetCallOutcome } from "../common/target-call";
import { formatClauses, traceClauses, type TraceStep } from "./diagnose";
import { evalDatasetOf } from "./reference";
import type { GameSession, StepResult } from "./session";

/** Consecutive failed target calls that end an episode. */
export const MAX_CONSECUTIVE_CALL_FAILURES = 3;

export interface Episode {
  steps: number;
  won: boolean;
  done: boolean;
  calls: number;
  failedCalls: number;
  consecutiveFailures: number;
  lastFailure: Extract<TargetCallOutcome, { ok: false }> | null;
  stoppedByFailures: boolean;
  invalidReplies: number;
  inadmissible: number;
  trace: TraceStep[];
  conversation: ConversationEntry[];
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
}

export function newEpisode(first: StepResult): Episode {
  return {
    steps: 0,
    won: first.won,
    done: first.done,
    calls: 0,
    failedCalls: 0,
    consecutiveFailures: 0,
    lastFailure: null,
    stoppedByFailures: false,
    invalidReplies: 0,
    inadmissible: 0,
    trace: [],
    conversation: [{ role: "user", content: first.observation }],
    latencyMs: 0,
    promptTokens: 0,
    completionTokens: 0,
  };
}

/** Where the game came from: the seed (built-in) or the game file and its split (real ALFWorld). */
function gameExtras(item: RolloutInput["item"]): Record<string, unknown> {
  if (typeof item.gamefile === "string") return { gamefile: item.gamefile, eval_dataset: evalDatasetOf(item.gamefile) };
  return typeof item.seed === "number" ? { seed: item.seed } : {};
}

export interface Finished {
  item: RolloutInput["item"];
  base: TrajectoryBase;
  ep: Episode;
  session: GameSession;
}

export function score(run: { maxSteps: number; simulator: string }, { item, base, ep, session }: Finished): Trajectory {
  const extras = {
    won: ep.won,
    simulator: run.simulator,
    invalid_replies: ep.invalidReplies,
    inadmissible_actions: ep.inadmissible,
    target_call_failures: ep.failedCalls,
    ...gameExtras(item),
  };
  const stats = {
    nTurns: ep.steps,
    latencyMs: ep.latencyMs,
    promptTokens: ep.promptTokens,
    completionTokens: ep.completionTokens,
    extras,
  };
  if (ep.won) {
    ep.conversation.push({
      role: "system",
      content: `[EVALUATION RESULT] task: ${base.taskDescription ?? ""} | won: true | steps: ${ep.steps}`,
    });
    return { ...base, ...stats, hard: 1, soft: 1, status: "ok", prediction: "won", conversation: ep.conversation };
  }
  const ending =
    ep.steps >= run.maxSteps ? `Timeout after ${ep.steps} steps` : "Episode ended without completing the task";
  const clauses = [...(session.diagnose?.() ?? []), ...traceClauses(ep.trace)];
  const outcome = clauses.length > 0 ? `${ending}: ${formatClauses(clauses)}` : ending;
  if (ep.failedCalls > 0 && ep.lastFailure) {
    const what = ep.stoppedByFailures
      ? `${MAX_CONSECUTIVE_CALL_FAILURES} target calls in a row failed at step ${ep.steps + 1}; episode stopped`
      : `${ep.failedCalls} of ${ep.calls} target calls failed and were replaced by 'look'`;
    const reason = `${ep.lastFailure.failReason} (${what}) | ${outcome}`;
    return failed(base, {
      status: ep.stoppedByFailures ? ep.lastFailure.status : "error",
      failReason: reason,
      ep,
      stats,
    });
  }
  ep.conversation.push({
    role: "system",
    content: `[EVALUATION RESULT] task: ${base.taskDescription ?? ""} | won: false | ${outcome}`,
  });
  return {
    ...base,
    ...stats,
    hard: 0,
    soft: 0,
    status: "ok",
    prediction: "not won",
    failReason: outcome,
    conversation: ep.conversation,
  };
}

export type TrajectoryBase = Omit<Trajectory, "hard" | "soft" | "status" | "conversation">;

/** An unscored trajectory (error / timeout / truncated) that keeps whatever conversation the episode had. */
export function failed(
  base: TrajectoryBase,
  o: { status: CallFailureStatus; failReason: string; ep?: Episode; stats?: Partial<Trajectory> },
): Trajectory {
  const conversation = [
    ...(o.ep?.conversation ?? []),
    { role: "system", content: `[EVALUATION RESULT] not scored: ${o.failReason}` },
  ];
  return {
    ...base,
    ...(o.stats ?? {}),
    hard: 0,
    soft: 0,
    status: o.status,
    failReason: o.failReason,
    conversation,
    nTurns: o.ep?.steps ?? 0,
  };
}
