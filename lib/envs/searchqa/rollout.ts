/**
 * One SearchQA rollout: a target call (plus refinement turns when `env.max_turns > 1`), scored by exact
 * match / F1. Never throws for a bad item or a failed call; only a cancelled run rejects.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { ChatMessage, RolloutInput } from "../../engine/ports";
import type { ConversationEntry, Trajectory } from "../../engine/types";
import { extractFinalAnswer, formatList, hasAnswerTag } from "../common/answer";
import { callTarget } from "../common/target-call";
import { scoreSearchQa } from "./evaluate";
import { missingSearchQaField, type SearchQaItem } from "./normalise";
import { buildRefinementPrompt, buildSearchQaSystemPrompt, buildSearchQaUserPrompt } from "./prompt";
import { errorTrajectory } from "../common/error-trajectory";

const TASK_TYPE = "qa";

/** Runs one item with the skill and returns its scored trajectory. */
export async function rolloutSearchQa(config: RunConfig, input: RolloutInput): Promise<Trajectory> {
  const { item } = input;
  const missing = missingSearchQaField(item);
  const question = typeof item.question === "string" ? item.question : "";
  if (missing !== null) {
    return errorTrajectory({ id: item.id, taskType: TASK_TYPE, taskDescription: question, question }, `item is missing field '${missing}'`);
  }
  const qa = item as SearchQaItem;
  const system = buildSearchQaSystemPrompt(input.skill);
  const user = buildSearchQaUserPrompt(qa.question, qa.context);
  const messages: ChatMessage[] = [{ role: "user", content: user }];
  const conversation: ConversationEntry[] = [{ role: "user", content: user }];
  const usage = { latencyMs: 0, promptTokens: 0, completionTokens: 0 };
  const base = { id: qa.id, taskType: TASK_TYPE, taskDescription: qa.question, question: qa.question };
  const maxTurns = Math.max(1, config.env.max_turns);
  let reply = "";
  let turns = 0;
  while (turns < maxTurns) {
    if (turns > 0) {
      const refine = buildRefinementPrompt(extractFinalAnswer(reply));
      messages.push({ role: "user", content: refine });
      conversation.push({ role: "user", content: refine });
    }
    const outcome = await callTarget({
      client: input.client,
      request: {
        role: "target", stage: "rollout", system, messages: [...messages],
        maxTokens: config.env.max_completion_tokens,
        reasoningEffort: config.model.reasoning_effort || null,
      },
      timeoutSec: config.env.exec_timeout,
      signal: input.signal,
    });
    if (!outcome.ok) {
      return { ...base, ...usage, hard: 0, soft: 0, status: outcome.status, failReason: outcome.failReason, conversation, nTurns: turns };
    }
    turns += 1;
    reply = outcome.result.text;
    usage.latencyMs += outcome.result.latencyMs;
    usage.promptTokens += outcome.result.usage.promptTokens;
    usage.completionTokens += outcome.result.usage.completionTokens;
    messages.push({ role: "assistant", content: reply });
    conversation.push({ role: "assistant", content: reply });
    if (turns >= 2 && hasAnswerTag(reply)) break;
  }
  const score = scoreSearchQa(reply, qa.answers);
  conversation.push({
    role: "system",
    content:
      `[EVALUATION RESULT] question: ${qa.question} | predicted: ${score.prediction} | gold: ${formatList(qa.answers)}` +
      ` | EM=${score.hard}, F1=${score.soft.toFixed(3)}`,
  });
  return {
    ...base, ...usage,
    hard: score.hard, soft: score.soft, status: "ok",
    prediction: score.prediction, reference: qa.answers.join(" | "),
    ...(score.failReason !== undefined ? { failReason: score.failReason } : {}),
    conversation, nTurns: turns,
  };
}
