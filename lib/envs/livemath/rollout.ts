/**
 * One LiveMath rollout: a single target call on the (batch-shuffled) choices, scored by the chosen
 * label. The trajectory reports option TEXTS, since labels move from batch to batch.
 */
import type { RunConfig } from "../../contracts/run-config";
import type { RolloutInput } from "../../engine/ports";
import type { Trajectory } from "../../engine/types";
import { envFlag } from "../common/env-options";
import { answerTurns } from "../common/answer-turns";
import { scoreLiveMath } from "./evaluate";
import { missingLiveMathField, type LiveMathItem } from "./normalise";
import { buildLiveMathSystemPrompt, buildLiveMathUserPrompt } from "./prompt";
import { errorTrajectory } from "../common/error-trajectory";

/** The row's task type: the first theorem type, else `math_mcq`. */
export function liveMathTaskType(item: Record<string, unknown>): string {
  const types = item.theorem_type;
  const first = Array.isArray(types) ? types.find((t): t is string => typeof t === "string" && t !== "") : undefined;
  return first ?? "math_mcq";
}

/** The hidden reference for the analyst: the theorem and its proof sketch. */
export function liveMathReferenceText(item: Record<string, unknown>): string {
  const theorem = typeof item.theorem === "string" ? item.theorem : "";
  const sketch = typeof item.sketch === "string" ? item.sketch : "";
  return `## Reference Theorem\n${theorem}\n\n## Reference Sketch\n${sketch}`;
}

/** Runs one item with the skill and returns its scored trajectory. */
export async function rolloutLiveMath(config: RunConfig, input: RolloutInput): Promise<Trajectory> {
  const { item } = input;
  const question = typeof item.question === "string" ? item.question : "";
  const base = {
    id: item.id,
    taskType: liveMathTaskType(item),
    taskDescription: question,
    question,
    referenceText: liveMathReferenceText(item),
  };
  const missing = missingLiveMathField(item);
  if (missing !== null) {
    return errorTrajectory(base, `item is missing field '${missing}'`);
  }
  const mcq = item as LiveMathItem;
  const system = buildLiveMathSystemPrompt(input.skill);
  const user = buildLiveMathUserPrompt({
    question: mcq.question,
    choices: mcq.choices,
    theorem: envFlag(config, "use_theorem", false) ? mcq.theorem : undefined,
    sketch: envFlag(config, "use_sketch", false) ? mcq.sketch : undefined,
  });
  const run = await answerTurns({ config, input, system, first: user });
  const { conversation } = run;
  // The analysts see the target's system prompt, as in the original.
  const prompted = { ...base, targetSystemPrompt: system };
  if (!run.ok)
    return {
      ...prompted,
      ...run.usage,
      hard: 0,
      soft: 0,
      status: run.status,
      failReason: run.failReason,
      conversation,
      nTurns: 0,
    };
  const { reply: text, usage } = run;
  const correct = mcq.correct_choice;
  const score = scoreLiveMath(text, mcq.choices, correct);
  conversation.push({
    role: "system",
    content:
      `[EVALUATION RESULT] question: ${mcq.question} | predicted: ${score.label ?? "?"}. ${score.prediction}` +
      ` | gold: ${correct.label}. ${correct.text} | MCQ=${score.hard}`,
  });
  return {
    ...prompted,
    hard: score.hard,
    soft: score.soft,
    status: "ok",
    prediction: score.prediction,
    reference: correct.text,
    ...(score.failReason !== undefined ? { failReason: score.failReason } : {}),
    conversation,
    nTurns: 1,
    ...usage,
    extras: { predicted_label: score.label, correct_label: correct.label },
  };
}
