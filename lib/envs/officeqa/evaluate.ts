/**
 * OfficeQA scoring: the answer is the FIRST `<answer>` tag of the final reply (else its last non-empty
 * line); both sides are normalised for numbers — lowercase, no commas, no punctuation but `. - %`, and the
 * scale/currency words million(s), billion(s), dollar(s) and nominal removed. Hard = exact match of the
 * normalised strings, soft = token F1, each maximised over the gold answers.
 */
import { formatList } from "../common/answer";

const FIRST_ANSWER_TAG = /<answer>([\s\S]*?)<\/answer>/i;
// ASCII punctuation except the three characters numbers need: `.`, `-` and `%` (and the comma, removed first).
const DROPPED_PUNCTUATION = /[!"#$&'()*+/:;<=>?@[\\\]^_`{|}~]/g;
const SCALE_WORDS = /(?<![\p{L}\p{N}_])(?:millions?|billions?|dollars?|nominal)(?![\p{L}\p{N}_])/gu;

/** The content of the FIRST `<answer>` tag (trimmed), else the last non-empty line, else "". */
export function extractOfficeQaAnswer(text: string): string {
  const m = FIRST_ANSWER_TAG.exec(text);
  if (m) return (m[1] ?? "").trim();
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  return lines[lines.length - 1] ?? "";
}

/** lowercase → trim → drop commas → drop punctuation except `.-%` → drop scale words → collapse spaces. */
export function normaliseOfficeQaAnswer(text: string): string {
  const s = text.toLowerCase().trim().replace(/,/g, "").replace(DROPPED_PUNCTUATION, "").replace(SCALE_WORDS, " ");
  return s
    .split(/\s+/)
    .filter((t) => t !== "")
    .join(" ");
}

function tokenF1(prediction: string, gold: string): number {
  const p = normaliseOfficeQaAnswer(prediction)
    .split(" ")
    .filter((t) => t !== "");
  const g = normaliseOfficeQaAnswer(gold)
    .split(" ")
    .filter((t) => t !== "");
  // As the original: two empty token lists are a match, one empty list is not.
  if (p.length === 0 || g.length === 0) return p.length === g.length ? 1 : 0;
  const left = new Map<string, number>();
  for (const t of g) left.set(t, (left.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of p) {
    const n = left.get(t) ?? 0;
    if (n > 0) {
      same += 1;
      left.set(t, n - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * 1 when the normalised prediction equals a normalised gold, else 0. Two strings that both normalise to
 * "" (e.g. "?" against "—") match, as in the original; an empty raw answer never reaches here.
 */
export function officeQaExactMatch(prediction: string, golds: readonly string[]): number {
  const p = normaliseOfficeQaAnswer(prediction);
  return golds.some((g) => normaliseOfficeQaAnswer(g) === p) ? 1 : 0;
}

/** Token F1 of the normalised strings, maximised over the golds (both empty → 1, one empty → 0). */
export function officeQaF1(prediction: string, golds: readonly string[]): number {
  return golds.reduce((best, g) => Math.max(best, tokenF1(prediction, g)), 0);
}

/** The scored answer of one final reply. */
export interface OfficeQaScore {
  prediction: string;
  hard: number;
  soft: number;
  /** Only when hard < 1. */
  failReason?: string;
}

/**
 * Extracts the answer of `reply` and scores it; no answer at all (an empty extracted string, as the
 * original's `if final_answer`) scores 0/0 with its own reason.
 */
export function scoreOfficeQa(reply: string, golds: readonly string[]): OfficeQaScore {
  const prediction = extractOfficeQaAnswer(reply);
  if (prediction === "") {
    return {
      prediction,
      hard: 0,
      soft: 0,
      failReason: `no answer: the reply has no usable final answer (expected ${formatList(golds)})`,
    };
  }
  const hard = officeQaExactMatch(prediction, golds);
  const soft = officeQaF1(prediction, golds);
  if (hard >= 1) return { prediction, hard, soft };
  return { prediction, hard, soft, failReason: `EM=0: predicted '${prediction}' but expected ${formatList(golds)}` };
}
