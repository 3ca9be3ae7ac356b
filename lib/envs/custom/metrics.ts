/**
 * The custom benchmark's metrics (everything but the LLM judge, see judge.ts). Each scores an extracted
 * answer against the gold answers and returns hard (0/1), soft (0–1) and, when hard is 0, a reason the
 * analyst can read. Text comparisons use SQuAD normalisation (lowercase, no ASCII punctuation, no
 * articles, single spaces).
 *
 * - exact:    hard = the normalised answer equals a normalised gold; soft = max(hard, token F1).
 * - contains: hard = a normalised gold appears in the normalised answer as whole words; soft = max(hard, F1).
 * - f1:       soft = best token-multiset F1; hard = soft ≥ 0.5.
 * - numeric:  the answer's number (the whole answer, else its last number; `1,234.5`, `45%`, `$3`,
 *             `-2e3` all parse; a percent sign is dropped, so `45%` is 45) must be within
 *             tolerance × max(1, |gold|) of a gold number (the edge counts); soft = hard.
 * - regex:    with `{answer}` in the pattern, the answer must match the whole pattern with `{answer}`
 *             replaced by an escaped gold; without it, the pattern's first group (or whole match) is
 *             taken from the answer and compared like exact. Case-insensitive; soft = hard.
 */
import { formatList } from "../common/answer";
import { exactMatch, f1Score, normaliseAnswer } from "../searchqa/evaluate";

/** A scored answer. */
export interface MetricScore {
  hard: number;
  soft: number;
  /** Only when hard < 1. */
  failReason?: string;
}

const miss = (soft: number, failReason: string): MetricScore => ({ hard: 0, soft, failReason });

/** Pass mark of the graded metrics (f1, judge). */
export const PASS_MARK = 0.5;

export function scoreExact(answer: string, golds: readonly string[]): MetricScore {
  const hard = exactMatch(answer, golds);
  const soft = Math.max(hard, f1Score(answer, golds));
  return hard === 1 ? { hard, soft } : miss(soft, `EM=0: predicted '${answer}' but expected ${formatList(golds)}`);
}

function containsWords(haystack: string, needle: string): boolean {
  if (needle === "") return true;
  return ` ${haystack} `.includes(` ${needle} `);
}

export function scoreContains(answer: string, golds: readonly string[]): MetricScore {
  const a = normaliseAnswer(answer);
  const hard = golds.some((g) => containsWords(a, normaliseAnswer(g))) ? 1 : 0;
  const soft = Math.max(hard, f1Score(answer, golds));
  return hard === 1
    ? { hard, soft }
    : miss(soft, `contains=0: the answer '${answer}' contains none of ${formatList(golds)}`);
}

export function scoreF1(answer: string, golds: readonly string[]): MetricScore {
  const soft = f1Score(answer, golds);
  if (soft >= PASS_MARK) return { hard: 1, soft };
  return miss(soft, `F1=${soft.toFixed(3)} < ${PASS_MARK}: predicted '${answer}' but expected ${formatList(golds)}`);
}

const NUMBER = /[-+\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+]?\d+)?/g;
const CURRENCY = /[$€£¥₹]|\b(?:usd|eur|gbp|jpy)\b/gi;

/** The number a text states: the whole text if it is one number, else its last number; null if none. */
export function parseNumber(text: string): number | null {
  const cleaned = text
    .replace(CURRENCY, "")
    .replace(/%/g, "")
    .replace(/\u2212/g, "-")
    .trim();
  const whole = cleaned.replace(/,(?=\d{3}\b)/g, "").replace(/\s+/g, "");
  if (/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(whole)) return Number(whole);
  const found = [...cleaned.matchAll(NUMBER)].map((m) => m[0]).filter((m) => /\d/.test(m));
  const last = found.at(-1);
  if (last === undefined) return null;
  const n = Number(last.replace(/,/g, ""));
  return Number.isFinite(n) ? n : null;
}

/** True when `value` is within `tolerance × max(1, |gold|)` of `gold` (the edge included). */
export function withinTolerance(value: number, gold: number, tolerance: number): boolean {
  const allowed = tolerance * Math.max(1, Math.abs(gold));
  // A hair of slack so that 0.1 + 0.2 vs 0.3 at tolerance 0 is not a float artefact.
  return Math.abs(value - gold) <= allowed + 1e-12 * Math.max(1, Math.abs(gold));
}

export function scoreNumeric(answer: string, golds: readonly string[], tolerance: number): MetricScore {
  const value = parseNumber(answer);
  if (value === null) return miss(0, `no number in the answer '${answer}'; expected ${formatList(golds)}`);
  const hit = golds.some((g) => {
    const gold = parseNumber(g);
    return gold !== null && withinTolerance(value, gold, tolerance);
  });
  return hit
    ? { hard: 1, soft: 1 }
    : miss(0, `numeric=0: predicted ${value} but expected ${formatList(golds)} (tolerance ${tolerance})`);
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function scoreRegex(answer: string, golds: readonly string[], pattern: string): MetricScore {
  if (pattern.includes("{answer}")) {
    const hit = golds.some((g) =>
      new RegExp(`^(?:${pattern.replaceAll("{answer}", escapeRegex(g))})$`, "i").test(answer),
    );
    return hit
      ? { hard: 1, soft: 1 }
      : miss(0, `regex=0: the answer '${answer}' does not match ${pattern} for any of ${formatList(golds)}`);
  }
  const m = new RegExp(pattern, "i").exec(answer);
  if (m === null) return miss(0, `regex=0: the answer '${answer}' does not match ${pattern}`);
  const taken = m[1] ?? m[0];
  const hard = exactMatch(taken, golds);
  return hard === 1 ? { hard, soft: 1 } : miss(0, `regex=0: extracted '${taken}' but expected ${formatList(golds)}`);
}
