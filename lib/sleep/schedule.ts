/**
 * Sleep schedule patterns for the worker's job scheduler: exactly five cron fields (minute hour
 * day-of-month month day-of-week), so a schedule can never fire more than once a minute, parsed with
 * cron-parser (the parser BullMQ itself uses). Errors name the field they are about.
 */
import { CronExpressionParser } from "cron-parser";
import { AppError } from "../errors";

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A refusal message for `pattern`, or null when it is a valid five-field cron pattern. */
export function cronPatternProblem(pattern: string): string | null {
  if (CONTROL.test(pattern)) return "must not contain control characters";
  const fields = pattern.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5)
    return `must have 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}, e.g. "0 3 * * *"`;
  try {
    CronExpressionParser.parse(fields.join(" "));
    return null;
  } catch (err) {
    return `is not a valid cron pattern (${(err as Error).message})`;
  }
}

/** Throws INVALID_REQUEST naming `field` when the pattern is not usable. */
export function assertCronPattern(pattern: string, field = "cronPattern"): void {
  const problem = cronPatternProblem(pattern);
  if (problem) throw new AppError("INVALID_REQUEST", `${field}: ${problem}`, { field });
}

/** The next time the pattern fires after `from` (ISO), or null for an empty or invalid pattern. */
export function nextCronRun(pattern: string, from: Date, tz?: string): string | null {
  if (!pattern.trim() || cronPatternProblem(pattern)) return null;
  return CronExpressionParser.parse(pattern.trim(), { currentDate: from, tz }).next().toISOString();
}
