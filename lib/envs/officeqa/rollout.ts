/**
 * One OfficeQA rollout. With local tools the target runs as an agent over the text tool protocol: each
 * round it either asks for tools (executed against the corpus, results sent back) or answers; without
 * tools it answers once from the hints. Never throws for a bad item, a failed call or a misbehaving
 * model; only a cancelled run (or an error that must stop the run) rejects.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { ChatMessage, RolloutInput } from "../../engine/ports";
import type { ConversationEntry, Trajectory } from "../../engine/types";
import { formatList } from "../common/answer";
import { callTarget } from "../common/target-call";
import type { CorpusFile } from "./corpus";
import { scoreOfficeQa, type OfficeQaScore } from "./evaluate";
import { missingOfficeQaField, type OfficeQaItem } from "./normalise";
import { buildOfficeQaSystemPrompt, buildOfficeQaUserPrompt } from "./prompt";
import { formatToolResults, hasAnswer, MAX_CALLS_PER_REPLY, parseToolCalls, type ToolExchange } from "./protocol";
import { createToolRuntime, type ToolRuntime } from "./tools";

/** What every rollout of a run shares: the corpus and the tool settings. */
export interface OfficeQaRuntime {
  roots: string[];
  files: CorpusFile[];
  useTools: boolean;
  maxToolTurns: number;
}

interface LoopState {
  messages: ChatMessage[];
  conversation: ConversationEntry[];
  usage: { latencyMs: number; promptTokens: number; completionTokens: number };
  rounds: number;
  toolCalls: number;
  malformedToolCalls: number;
}

/** Runs one item with the skill and returns its scored trajectory. */
export async function rolloutOfficeQa(config: RunConfig, runtime: OfficeQaRuntime, input: RolloutInput): Promise<Trajectory> {
  const { item } = input;
  const question = typeof item.question === "string" ? item.question : "";
  const taskType = typeof item.task_type === "string" ? item.task_type : "officeqa";
  const base = { id: item.id, taskType, taskDescription: question, question };
  const missing = missingOfficeQaField(item);
  if (missing !== null) {
    return {
      ...base, hard: 0, soft: 0, status: "error", failReason: `error: item is missing field '${missing}'`,
      conversation: [{ role: "system", content: `[EVALUATION RESULT] item is missing field '${missing}'` }], nTurns: 0,
    };
  }
  const qa = item as OfficeQaItem;
  const tools = createToolRuntime({ roots: runtime.roots, files: runtime.files, sourceFiles: qa.source_files });
  const system = buildOfficeQaSystemPrompt(input.skill, runtime.useTools);
  const user = buildOfficeQaUserPrompt({
    question: qa.question, candidates: tools.candidates.map((f) => f.rel),
    sourceFiles: qa.source_files, sourceDocs: qa.source_docs, useTools: runtime.useTools,
  });
  const state: LoopState = {
    messages: [{ role: "user", content: user }], conversation: [{ role: "user", content: user }],
    usage: { latencyMs: 0, promptTokens: 0, completionTokens: 0 }, rounds: 0, toolCalls: 0, malformedToolCalls: 0,
  };
  const extras = () => ({
    ground_truth: qa.ground_truth, source_files: qa.source_files,
    resolved_source_paths: tools.candidates.map((f) => f.rel), use_local_tools: runtime.useTools,
    tool_calls: state.toolCalls, malformed_tool_calls: state.malformedToolCalls,
  });
  const finish = (score: OfficeQaScore): Trajectory => {
    state.conversation.push({ role: "system", content: evaluationNote(qa, score) });
    return {
      ...base, ...state.usage, hard: score.hard, soft: score.soft, status: "ok",
      prediction: score.prediction, reference: qa.answers.join(" | "),
      ...(score.failReason !== undefined ? { failReason: score.failReason } : {}),
      conversation: state.conversation, nTurns: state.rounds, targetSystemPrompt: system, targetUserPrompt: user, extras: extras(),
    };
  };
  const maxRounds = runtime.useTools ? Math.max(1, runtime.maxToolTurns) : 1;
  while (state.rounds < maxRounds) {
    const outcome = await callTarget({
      client: input.client,
      request: {
        role: "target", stage: "rollout", system, messages: [...state.messages],
        maxTokens: config.env.max_completion_tokens, reasoningEffort: config.model.reasoning_effort || null,
      },
      timeoutSec: config.env.exec_timeout,
      signal: input.signal,
    });
    if (!outcome.ok) {
      state.conversation.push({ role: "system", content: `[EVALUATION RESULT] ${outcome.failReason} (round ${state.rounds + 1})` });
      return {
        ...base, ...state.usage, hard: 0, soft: 0, status: outcome.status, failReason: outcome.failReason,
        conversation: state.conversation, nTurns: state.rounds, targetSystemPrompt: system, targetUserPrompt: user, extras: extras(),
      };
    }
    const reply = outcome.result.text;
    state.rounds += 1;
    state.usage.latencyMs += outcome.result.latencyMs;
    state.usage.promptTokens += outcome.result.usage.promptTokens;
    state.usage.completionTokens += outcome.result.usage.completionTokens;
    state.messages.push({ role: "assistant", content: reply });
    state.conversation.push({ role: "assistant", content: reply });
    if (!runtime.useTools || hasAnswer(reply)) return finish(scoreOfficeQa(reply, qa.answers));
    const calls = parseToolCalls(reply);
    if (calls.length === 0) {
      return finish(failure(`neither tool request nor answer in round ${state.rounds}`, qa));
    }
    if (state.rounds >= maxRounds) {
      return finish(failure(`no answer within ${maxRounds} rounds (the tool budget max_tool_turns is exhausted)`, qa));
    }
    const results = runCalls(calls, tools, state);
    const next = formatToolResults(results, state.rounds, maxRounds);
    state.messages.push({ role: "user", content: next });
    state.conversation.push({ role: "user", content: next });
  }
  return finish(failure(`no answer within ${maxRounds} rounds`, qa));
}

function failure(reason: string, qa: OfficeQaItem): OfficeQaScore {
  return { prediction: "", hard: 0, soft: 0, failReason: `${reason} (expected ${formatList(qa.answers)})` };
}

function runCalls(calls: ReturnType<typeof parseToolCalls>, tools: ToolRuntime, state: LoopState): ToolExchange[] {
  return calls.map((c, i): ToolExchange => {
    if (!c.ok) {
      state.malformedToolCalls += 1;
      return { name: "invalid", result: `error: ${c.error}`, ok: false };
    }
    if (i >= MAX_CALLS_PER_REPLY) {
      return { name: c.call.name, result: `error: only ${MAX_CALLS_PER_REPLY} tool calls are run per reply; ask again next round`, ok: false };
    }
    state.toolCalls += 1;
    const result = tools.run(c.call);
    if (result.startsWith("error: unknown tool")) state.malformedToolCalls += 1;
    return { name: c.call.name, arguments: c.call.arguments, result, ok: !result.startsWith("error:") };
  });
}

function evaluationNote(qa: OfficeQaItem, score: OfficeQaScore): string {
  const head =
    `[EVALUATION RESULT] question: ${qa.question} | predicted: ${score.prediction || "(none)"} | gold: ${formatList(qa.answers)}` +
    ` | EM=${score.hard}, F1=${score.soft.toFixed(3)}`;
  return score.failReason !== undefined && score.prediction === "" ? `${head} | ${score.failReason}` : head;
}
