/**
 * The LLM judge: the optimizer model grades the target's answer against the gold answer(s) with the
 * user's rubric, in a second call (stage "judge"). Its reply must hold a JSON object
 * `{"score": 0..1, "reason": "…"}`; anything else is an error trajectory with the reason, never a 0.
 */
import { z } from "zod";
import { JUDGE_SIGNATURE } from "../../contracts/judge";
import type { ModelClient } from "../../engine/ports";
import { callTarget, type CallFailureStatus } from "../common/target-call";
import { PASS_MARK, type MetricScore } from "./metrics";

/** The rubric used when env.judge_rubric is empty. */
export const DEFAULT_RUBRIC = [
  "Score 1 when the candidate answer means the same as one of the reference answers (wording, case and formatting may differ).",
  "Score 0 when it is wrong, contradicts the references, hedges between several answers, or is missing.",
  "Give a value in between only for an answer that is partly right (for example one of two required parts).",
].join("\n");

export const JUDGE_SYSTEM = [
  JUDGE_SIGNATURE,
  "Compare the candidate answer with the reference answer(s) and apply the rubric strictly; do not answer the question yourself.",
  'Reply with a single JSON object and nothing else: {"score": <number from 0 to 1>, "reason": "<one short sentence>"}.',
].join("\n");

/** The grader's user message. */
export function buildJudgePrompt(opts: {
  question: string;
  golds: readonly string[];
  answer: string;
  rubric: string;
}): string {
  return [
    "## Question",
    opts.question,
    "",
    "## Reference answers",
    ...opts.golds.map((g) => `- ${g}`),
    "",
    "## Candidate answer",
    opts.answer === "" ? "(empty)" : opts.answer,
    "",
    "## Rubric",
    opts.rubric.trim() === "" ? DEFAULT_RUBRIC : opts.rubric.trim(),
  ].join("\n");
}

const VerdictSchema = z.object({ score: z.number().min(0).max(1), reason: z.string().default("") });
export type JudgeVerdict = z.infer<typeof VerdictSchema>;

/** The verdict in a judge reply (the outermost `{…}`, optionally fenced), or why there is none. */
export function parseJudgeReply(text: string): { ok: true; verdict: JudgeVerdict } | { ok: false; reason: string } {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  const snippet = text.replace(/\s+/g, " ").trim().slice(0, 120);
  if (start < 0 || end <= start) return { ok: false, reason: `judge reply has no JSON object: '${snippet}'` };
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return { ok: false, reason: `judge reply is not valid JSON: '${snippet}'` };
  }
  const parsed = VerdictSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason: `judge reply has no usable score (${issue?.path.join(".") || "value"}: ${issue?.message ?? "invalid"}): '${snippet}'`,
    };
  }
  return { ok: true, verdict: parsed.data };
}

/** What a judge call produced: a score, or an error/timeout to report instead of a 0. */
export type JudgeOutcome =
  | {
      ok: true;
      score: MetricScore;
      verdict: JudgeVerdict;
      reply: string;
      promptTokens: number;
      completionTokens: number;
    }
  | { ok: false; status: CallFailureStatus; failReason: string; reply?: string };

/** Asks the grader; hard = score ≥ 0.5, soft = score. */
export async function judgeAnswer(opts: {
  client: ModelClient | undefined;
  question: string;
  golds: readonly string[];
  answer: string;
  rubric: string;
  timeoutSec: number;
  maxTokens: number;
  /** `env.truncation_retry_max_tokens`. */
  retryMaxTokens?: number | null;
  signal?: AbortSignal;
}): Promise<JudgeOutcome> {
  if (!opts.client)
    return {
      ok: false,
      status: "error",
      failReason: "error: metric 'judge' needs the optimizer model, which this run does not provide",
    };
  const outcome = await callTarget({
    client: opts.client,
    request: {
      role: "optimizer",
      stage: "judge",
      system: JUDGE_SYSTEM,
      messages: [{ role: "user", content: buildJudgePrompt(opts) }],
      maxTokens: opts.maxTokens,
    },
    timeoutSec: opts.timeoutSec,
    retryMaxTokens: opts.retryMaxTokens,
    signal: opts.signal,
  });
  if (!outcome.ok) return { ok: false, status: outcome.status, failReason: `judge ${outcome.failReason}` };
  const reply = outcome.result.text;
  const parsed = parseJudgeReply(reply);
  if (!parsed.ok) return { ok: false, status: "error", failReason: `error: ${parsed.reason}`, reply };
  const { score, reason } = parsed.verdict;
  const hard = score >= PASS_MARK ? 1 : 0;
  const metric: MetricScore =
    hard === 1
      ? { hard, soft: score }
      : { hard, soft: score, failReason: `judge score ${score.toFixed(2)}: ${reason || "no reason given"}` };
  const { promptTokens, completionTokens } = outcome.result.usage;
  return { ok: true, score: metric, verdict: parsed.verdict, reply, promptTokens, completionTokens };
}
