/**
 * One OfficeQA rollout. The target runs as an agent for up to `max_tool_turns` rounds: each round it
 * either asks for something — local tools (offline mode) or web searches (custom_search) — whose results
 * go back as the next user message, or it answers. With `use_local_tools: false` it answers once from
 * the hints. Never throws for a bad item, a failed call or a misbehaving model; only a cancelled run (or
 * an error that must stop the run) rejects.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { ChatMessage, RolloutInput } from "../../engine/ports";
import type { ConversationEntry, Trajectory } from "../../engine/types";
import { formatList } from "../common/answer";
import { callRolloutTarget } from "../common/target-call";
import { scoreOfficeQa, type OfficeQaScore } from "./evaluate";
import { missingOfficeQaField, type OfficeQaItem } from "./normalise";
import { createAgentMode, type OfficeQaRuntime } from "./modes";
import { hasAnswer } from "./protocol";
import { errorTrajectory } from "../common/error-trajectory";

export type { OfficeQaRuntime } from "./modes";

/** Runs one item with the skill and returns its scored trajectory. */
export async function rolloutOfficeQa(
  config: RunConfig,
  runtime: OfficeQaRuntime,
  input: RolloutInput,
): Promise<Trajectory> {
  const { item } = input;
  const question = typeof item.question === "string" ? item.question : "";
  const taskType = typeof item.task_type === "string" ? item.task_type : "officeqa";
  const base = { id: item.id, taskType, taskDescription: question, question };
  const missing = missingOfficeQaField(item);
  if (missing !== null) {
    return errorTrajectory(base, `item is missing field '${missing}'`);
  }
  const qa = item as OfficeQaItem;
  const mode = createAgentMode(runtime, qa, input.skill);
  const messages: ChatMessage[] = [{ role: "user", content: mode.user }];
  const conversation: ConversationEntry[] = [{ role: "user", content: mode.user }];
  const usage = { latencyMs: 0, promptTokens: 0, completionTokens: 0 };
  let rounds = 0;
  const common = () => ({
    ...base,
    ...usage,
    conversation,
    nTurns: rounds,
    targetSystemPrompt: mode.system,
    targetUserPrompt: mode.user,
    extras: { ground_truth: qa.ground_truth, source_files: qa.source_files, ...mode.extras() },
  });
  const finish = (score: OfficeQaScore): Trajectory => {
    conversation.push({ role: "system", content: evaluationNote(qa, score) });
    return {
      ...common(),
      hard: score.hard,
      soft: score.soft,
      status: "ok",
      prediction: score.prediction,
      reference: qa.answers.join(" | "),
      ...(score.failReason !== undefined ? { failReason: score.failReason } : {}),
    };
  };
  while (rounds < mode.maxRounds) {
    const outcome = await callRolloutTarget({
      client: input.client,
      signal: input.signal,
      config,
      system: mode.system,
      messages: [...messages],
    });
    if (!outcome.ok) {
      conversation.push({ role: "system", content: `[EVALUATION RESULT] ${outcome.failReason} (round ${rounds + 1})` });
      return { ...common(), hard: 0, soft: 0, status: outcome.status, failReason: outcome.failReason };
    }
    const reply = outcome.result.text;
    rounds += 1;
    usage.latencyMs += outcome.result.latencyMs;
    usage.promptTokens += outcome.result.usage.promptTokens;
    usage.completionTokens += outcome.result.usage.completionTokens;
    messages.push({ role: "assistant", content: reply });
    conversation.push({ role: "assistant", content: reply });
    if (mode.maxRounds === 1 || hasAnswer(reply)) return finish(scoreOfficeQa(reply, qa.answers));
    const next = await mode.next(reply, rounds, input.signal);
    if (next.kind === "fail") return finish(failure(`${next.reason} in round ${rounds}`, qa));
    if (rounds >= mode.maxRounds) {
      return finish(failure(`no answer within ${mode.maxRounds} rounds (the budget max_tool_turns is exhausted)`, qa));
    }
    messages.push({ role: "user", content: next.message });
    conversation.push({ role: "user", content: next.message });
  }
  return finish(failure(`no answer within ${mode.maxRounds} rounds`, qa));
}

function failure(reason: string, qa: OfficeQaItem): OfficeQaScore {
  return { prediction: "", hard: 0, soft: 0, failReason: `${reason} (expected ${formatList(qa.answers)})` };
}

function evaluationNote(qa: OfficeQaItem, score: OfficeQaScore): string {
  const head =
    `[EVALUATION RESULT] question: ${qa.question} | predicted: ${score.prediction || "(none)"} | gold: ${formatList(qa.answers)}` +
    ` | EM=${score.hard}, F1=${score.soft.toFixed(3)}`;
  return score.failReason !== undefined && score.prediction === "" ? `${head} | ${score.failReason}` : head;
}
