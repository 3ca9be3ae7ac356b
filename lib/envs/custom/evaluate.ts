/**
 * Scoring one reply of the custom benchmark with the configured metric (the judge is asynchronous and
 * lives in judge.ts; this covers the local metrics).
 */
import { extractFinalAnswer } from "../common/answer";
import { scoreContains, scoreExact, scoreF1, scoreNumeric, scoreRegex, type MetricScore } from "./metrics";
import type { CustomOptions } from "./options";

/** The extracted answer and its score under a local metric (`judge` is handled by the rollout). */
export function scoreCustom(
  reply: string,
  golds: readonly string[],
  opts: CustomOptions,
): MetricScore & { prediction: string } {
  const prediction = extractFinalAnswer(reply);
  return { prediction, ...scoreLocal(prediction, golds, opts) };
}

function scoreLocal(answer: string, golds: readonly string[], opts: CustomOptions): MetricScore {
  switch (opts.metric) {
    case "exact":
    case "judge":
      return scoreExact(answer, golds);
    case "contains":
      return scoreContains(answer, golds);
    case "f1":
      return scoreF1(answer, golds);
    case "numeric":
      return scoreNumeric(answer, golds, opts.numericTolerance);
    case "regex":
      return scoreRegex(answer, golds, opts.answerRegex);
  }
}
