/**
 * The answer loop of the question-answering benchmarks: one target call, then — while the turn limit
 * allows and the reply is not final — a follow-up user message and another call. Usage is summed over
 * the turns; a failed call ends the loop with its status and reason (never a throw, except for a
 * cancelled run or an error that must stop it, as `callTarget` decides).
 */
import type { RunConfig } from "../../contracts/run-config";
import type { ChatMessage, RolloutInput } from "../../engine/ports";
import type { ConversationEntry, Trajectory } from "../../engine/types";
import { callRolloutTarget, type CallFailureStatus } from "./target-call";

export interface TurnUsage {
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
}

export interface AnswerTurnsOptions {
  config: RunConfig;
  input: RolloutInput;
  system: string;
  /** The first user message as sent to the model. */
  first: ChatMessage["content"];
  /** The same message as the trajectory records it (e.g. an image by path, not by bytes); default `first`. */
  firstRecorded?: ConversationEntry;
  /** Turn limit (default 1). */
  maxTurns?: number;
  /** The next user message after a reply that is not final. */
  followUp?: (reply: string) => string;
  /** True when `reply` (the `turns`-th) ends the loop early. */
  isFinal?: (reply: string, turns: number) => boolean;
}

export type AnswerTurns =
  | { ok: true; reply: string; turns: number; conversation: ConversationEntry[]; usage: TurnUsage }
  | {
      ok: false;
      status: CallFailureStatus;
      failReason: string;
      turns: number;
      conversation: ConversationEntry[];
      usage: TurnUsage;
    };

export async function answerTurns(opts: AnswerTurnsOptions): Promise<AnswerTurns> {
  const { config, input } = opts;
  const messages: ChatMessage[] = [{ role: "user", content: opts.first }];
  const conversation: ConversationEntry[] = [opts.firstRecorded ?? { role: "user", content: opts.first }];
  const usage: TurnUsage = { latencyMs: 0, promptTokens: 0, completionTokens: 0 };
  const maxTurns = Math.max(1, opts.maxTurns ?? 1);
  let reply = "";
  let turns = 0;
  while (turns < maxTurns) {
    if (turns > 0 && opts.followUp) {
      const next = opts.followUp(reply);
      messages.push({ role: "user", content: next });
      conversation.push({ role: "user", content: next });
    }
    const outcome = await callRolloutTarget({
      client: input.client,
      signal: input.signal,
      config,
      system: opts.system,
      messages: [...messages],
    });
    if (!outcome.ok)
      return { ok: false, status: outcome.status, failReason: outcome.failReason, turns, conversation, usage };
    turns += 1;
    reply = outcome.result.text;
    usage.latencyMs += outcome.result.latencyMs;
    usage.promptTokens += outcome.result.usage.promptTokens;
    usage.completionTokens += outcome.result.usage.completionTokens;
    messages.push({ role: "assistant", content: reply });
    conversation.push({ role: "assistant", content: reply });
    if (opts.isFinal?.(reply, turns)) break;
  }
  return { ok: true, reply, turns, conversation, usage };
}

/**
 * The trajectory of a question whose answer loop ended on a failed call: scored 0, with the call's status
 * and reason, the conversation and usage so far.
 */
export function unansweredTrajectory(
  base: Omit<Trajectory, "hard" | "soft" | "status" | "conversation">,
  run: Extract<AnswerTurns, { ok: false }>,
): Trajectory {
  return {
    ...base,
    ...run.usage,
    hard: 0,
    soft: 0,
    status: run.status,
    failReason: run.failReason,
    conversation: run.conversation,
    nTurns: run.turns,
  };
}
