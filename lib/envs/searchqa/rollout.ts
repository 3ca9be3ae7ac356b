/**
 * One SearchQA rollout: a target call (plus refinement turns when `env.max_turns > 1`), scored by exact
 * match / F1. Never throws for a bad item or a failed call; only a cancelled run rejects.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { RolloutInput } from "../../engine/ports";
import type { Trajectory } from "../../engine/types";
import { extractFinalAnswer, formatList, hasAnswerTag } from "../common/answer";
import { answerTurns, unansweredTrajectory } from "../common/answer-turns";
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
    return errorTrajectory(
      { id: item.id, taskType: TASK_TYPE, taskDescription: question, question },
      `item is missing field '${missing}'`,
    );
  }
  const qa = item as SearchQaItem;
  const system = buildSearchQaSystemPrompt(input.skill);
  // The analysts see the target's system prompt, as in the original.
  const base = {
    id: qa.id,
    taskType: TASK_TYPE,
    taskDescription: qa.question,
    question: qa.question,
    targetSystemPrompt: system,
  };
  const run = await answerTurns({
    config,
    input,
    system,
    first: buildSearchQaUserPrompt(qa.question, qa.context),
    maxTurns: config.env.max_turns,
    followUp: (reply) => buildRefinementPrompt(extractFinalAnswer(reply)),
    isFinal: (reply, turns) => turns >= 2 && hasAnswerTag(reply),
  });
  const { conversation, usage, turns } = run;
  if (!run.ok) return unansweredTrajectory(base, run);
  const { reply } = run;
  const score = scoreSearchQa(reply, qa.answers);
  conversation.push({
    role: "system",
    content:
      `[EVALUATION RESULT] question: ${qa.question} | predicted: ${score.prediction} | gold: ${formatList(qa.answers)}` +
      ` | EM=${score.hard}, F1=${score.soft.toFixed(3)}`,
  });
  return {
    ...base,
    ...usage,
    hard: score.hard,
    soft: score.soft,
    status: "ok",
    prediction: score.prediction,
    reference: qa.answers.join(" | "),
    ...(score.failReason !== undefined ? { failReason: score.failReason } : {}),
    conversation,
    nTurns: turns,
  };
}
