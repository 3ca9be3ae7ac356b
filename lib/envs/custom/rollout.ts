/**
 * One custom rollout: a single target call, scored by the configured metric; with metric `judge` a
 * second call asks the optimizer model to grade the answer. Never throws for a bad item or a failed
 * call (only a cancelled run rejects); a grader that fails or answers malformed JSON makes an error
 * trajectory with the reason, not a 0.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { ModelClient, RolloutInput } from "../../engine/ports";
import type { ConversationEntry, Trajectory } from "../../engine/types";
import { formatList } from "../common/answer";
import { answerTurns, unansweredTrajectory } from "../common/answer-turns";
import { scoreCustom } from "./evaluate";
import { judgeAnswer } from "./judge";
import { meterJudge } from "./judge-meter";
import { missingCustomField, type CustomItem } from "./normalise";
import type { CustomOptions } from "./options";
import { buildCustomSystemPrompt, buildCustomUserPrompt } from "./prompt";
import { errorTrajectory } from "../common/error-trajectory";

export const CUSTOM_TASK_TYPE = "qa";

/** What a custom rollout needs besides the item: the run config, the options and the grader. */
export interface CustomRolloutDeps {
  config: RunConfig;
  options: CustomOptions;
  /** The optimizer model, for metric `judge`. */
  judge?: ModelClient;
}

function evaluation(
  qa: CustomItem,
  prediction: string,
  metric: string,
  score: { hard: number; soft: number },
  note = "",
): ConversationEntry {
  return {
    role: "system",
    content:
      `[EVALUATION RESULT] question: ${qa.question} | predicted: ${prediction} | gold: ${formatList(qa.answers)}` +
      ` | metric ${metric}: hard=${score.hard}, soft=${score.soft.toFixed(3)}${note}`,
  };
}

/** Runs one item with the skill and returns its scored trajectory. */
export async function rolloutCustom(deps: CustomRolloutDeps, input: RolloutInput): Promise<Trajectory> {
  const { config, options } = deps;
  const { item } = input;
  const question = typeof item.question === "string" ? item.question : "";
  const missing = missingCustomField(item);
  if (missing !== null) {
    return errorTrajectory(
      { id: item.id, taskType: CUSTOM_TASK_TYPE, taskDescription: question, question },
      `item is missing field '${missing}'`,
    );
  }
  const qa = item as CustomItem;
  const system = buildCustomSystemPrompt(input.skill);
  const user = buildCustomUserPrompt(qa.question, qa.context);
  // The analysts see the target's system prompt, as in the original's benchmarks.
  const base = {
    id: qa.id,
    taskType: CUSTOM_TASK_TYPE,
    taskDescription: qa.question,
    question: qa.question,
    reference: qa.answers.join(" | "),
    targetSystemPrompt: system,
  };
  const run = await answerTurns({ config, input, system, first: user });
  const { conversation, usage } = run;
  if (!run.ok) return unansweredTrajectory(base, run);
  const { reply } = run;
  const local = scoreCustom(reply, qa.answers, options);
  const prediction = local.prediction;
  if (options.metric !== "judge") {
    conversation.push(evaluation(qa, prediction, options.metric, local));
    return {
      ...base,
      ...usage,
      hard: local.hard,
      soft: local.soft,
      status: "ok",
      prediction,
      ...(local.failReason !== undefined ? { failReason: local.failReason } : {}),
      conversation,
      nTurns: 1,
    };
  }
  // The grader's calls are counted on the row (the engine adds them to the run's "judge" totals).
  const meter = deps.judge && meterJudge(deps.judge);
  const judged = await judgeAnswer({
    client: meter?.client,
    question: qa.question,
    golds: qa.answers,
    answer: prediction,
    rubric: options.judgeRubric,
    timeoutSec: config.env.exec_timeout,
    maxTokens: Math.min(config.env.max_completion_tokens, 2048),
    retryMaxTokens: config.env.truncation_retry_max_tokens,
    signal: input.signal,
  });
  const used = meter?.usage();
  const judgeUsage = used ? { judgeUsage: used } : {};
  if (!judged.ok) {
    conversation.push({
      role: "system",
      content: `[EVALUATION RESULT] question: ${qa.question} | predicted: ${prediction} | not graded: ${judged.failReason}`,
    });
    return {
      ...base,
      ...usage,
      hard: 0,
      soft: 0,
      ...judgeUsage,
      status: judged.status,
      prediction,
      failReason: judged.failReason,
      conversation,
      nTurns: 1,
      ...(judged.reply !== undefined ? { extras: { judge_reply: judged.reply } } : {}),
    };
  }
  const s = judged.score;
  conversation.push(evaluation(qa, prediction, "judge", s, ` | judge: ${judged.verdict.reason || "(no reason)"}`));
  return {
    ...base,
    ...usage,
    ...judgeUsage,
    hard: s.hard,
    soft: s.soft,
    status: "ok",
    prediction,
    ...(s.failReason !== undefined ? { failReason: s.failReason } : {}),
    conversation,
    nTurns: 1,
    extras: { judge_score: judged.verdict.score, judge_reason: judged.verdict.reason },
  };
}
