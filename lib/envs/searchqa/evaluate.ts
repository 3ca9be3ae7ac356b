/**
 * SearchQA scoring, SQuAD-style: the hard score is exact match against any gold answer, the soft score
 * the best token-multiset F1. Both compare normalised text (lowercase, no ASCII punctuation, no
 * articles, single spaces).
 */
import { extractFinalAnswer, formatList } from "../common/answer";

const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
// Unicode-aware word boundaries, like Python's `\b` on str.
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

/** lowercase → drop ASCII punctuation → remove the articles a/an/the → collapse whitespace. */
export function normaliseAnswer(text: string): string {
  const noPunct = text.toLowerCase().replace(ASCII_PUNCTUATION, "");
  return noPunct
    .replace(ARTICLES, " ")
    .split(/\s+/)
    .filter((t) => t !== "")
    .join(" ");
}

/** 1 when the normalised prediction equals any normalised gold, else 0. */
export function exactMatch(prediction: string, golds: readonly string[]): number {
  const p = normaliseAnswer(prediction);
  return golds.some((g) => normaliseAnswer(g) === p) ? 1 : 0;
}

function tokenF1(prediction: string, gold: string): number {
  const p = normaliseAnswer(prediction)
    .split(" ")
    .filter((t) => t !== "");
  const g = normaliseAnswer(gold)
    .split(" ")
    .filter((t) => t !== "");
  if (p.length === 0 || g.length === 0) return p.length === g.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of p) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      same += 1;
      counts.set(t, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Token-multiset F1, maximised over the golds (an empty prediction scores 1 only against an empty gold). */
export function f1Score(prediction: string, golds: readonly string[]): number {
  return golds.reduce((best, g) => Math.max(best, tokenF1(prediction, g)), 0);
}

/** The scored answer of one reply. */
export interface SearchQaScore {
  /** The extracted final answer. */
  prediction: string;
  hard: number;
  soft: number;
  /** Only when hard < 1. */
  failReason?: string;
}

/** Extracts the final answer of `reply` and scores it against `golds`. */
export function scoreSearchQa(reply: string, golds: readonly string[]): SearchQaScore {
  const prediction = extractFinalAnswer(reply);
  const hard = exactMatch(prediction, golds);
  const soft = f1Score(prediction, golds);
  if (hard >= 1) return { prediction, hard, soft };
  return { prediction, hard, soft, failReason: `EM=0: predicted '${prediction}' but expected ${formatList(golds)}` };
}
