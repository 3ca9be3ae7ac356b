/**
 * The custom benchmark's own `env.*` keys (lib/envs/catalog.ts), read from a run config. The config
 * loader has validated and defaulted them already; this re-reads them defensively so a config built in
 * code (tests, the worker's stored config) gets the same defaults.
 */
import type { RunConfig } from "../../contracts/run-config";
import { CUSTOM_METRICS, type CustomMetric } from "../../contracts/api";

/** The field mapping and the metric of a custom dataset. */
export interface CustomOptions {
  idField: string;
  questionField: string;
  answerField: string;
  /** "" when the items carry no context. */
  contextField: string;
  metric: CustomMetric;
  numericTolerance: number;
  answerRegex: string;
  judgeRubric: string;
}

function text(env: Record<string, unknown>, key: string, fallback: string): string {
  const v = env[key];
  return typeof v === "string" ? v.trim() : fallback;
}

/** The custom options of `config.env`, with the catalog's defaults for anything missing. */
export function customOptions(config: RunConfig): CustomOptions {
  const env = config.env as Record<string, unknown>;
  const metric = env.metric;
  const tolerance = env.numeric_tolerance;
  return {
    idField: text(env, "id_field", "id") || "id",
    questionField: text(env, "question_field", "question") || "question",
    answerField: text(env, "answer_field", "answer") || "answer",
    contextField: text(env, "context_field", ""),
    metric: (CUSTOM_METRICS as readonly unknown[]).includes(metric) ? (metric as CustomMetric) : "exact",
    numericTolerance: typeof tolerance === "number" && tolerance >= 0 ? tolerance : 1e-6,
    // Not trimmed: leading/trailing spaces may be part of a pattern or a rubric.
    answerRegex: typeof env.answer_regex === "string" ? env.answer_regex : "",
    judgeRubric: typeof env.judge_rubric === "string" ? env.judge_rubric : "",
  };
}
