/**
 * LiveMath scoring, as the original reads a reply: the last `<answer>` tag (else the last line) is
 * stripped, upper-cased and right-stripped of `.):` and must then equal a label (`B`, `B.`, `b)`);
 * else it must equal a choice's text (case-insensitive); else its first token is read the same way.
 * Bracketed labels such as `(B)` or `[C]` are not read (the original scores them wrong), so our
 * numbers compare with the paper's. hard = soft = 1 when it is the correct option.
 */
import { extractFinalAnswer } from "../common/answer";
import type { Choice } from "./normalise";

/** Python `str.strip()`: JS whitespace plus the separators \x1c-\x1f and \x85 Python also strips. */
function pyStrip(s: string): string {
  // eslint-disable-next-line no-control-regex -- Python's separators are control characters by definition
  return s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g, "");
}

/** The original's `normalize_label`: strip, upper-case, then drop trailing `.`, `)` and `:`. */
function cleanLabel(token: string): string {
  return pyStrip(token)
    .toUpperCase()
    .replace(/[.):]+$/, "");
}

/** The label of the option a reply chose, or null when none can be read. */
export function parseChoiceLabel(reply: string, choices: readonly Choice[]): string | null {
  const answer = extractFinalAnswer(reply);
  const labels = new Set(choices.map((c) => cleanLabel(c.label)));
  const direct = cleanLabel(answer);
  if (labels.has(direct)) return direct;
  const lower = answer.toLowerCase();
  const byText = choices.find((c) => {
    const text = pyStrip(c.text);
    return text !== "" && text.toLowerCase() === lower;
  });
  if (byText) return cleanLabel(byText.label);
  const first = cleanLabel(pyStrip(answer).split(/\s+/)[0] ?? "");
  return labels.has(first) ? first : null;
}

/** The scored choice of one reply. */
export interface LiveMathScore {
  /** The chosen label (null when unreadable). */
  label: string | null;
  /** The chosen option's text, or the raw answer when no option could be read. */
  prediction: string;
  hard: number;
  soft: number;
  /** Only when hard < 1. */
  failReason?: string;
}

/** Scores a reply against the item's choices and correct option. */
export function scoreLiveMath(reply: string, choices: readonly Choice[], correct: Choice): LiveMathScore {
  const label = parseChoiceLabel(reply, choices);
  const chosen = label === null ? undefined : choices.find((c) => cleanLabel(c.label) === label);
  const prediction = chosen?.text ?? extractFinalAnswer(reply);
  const hard = label !== null && label === cleanLabel(correct.label) ? 1 : 0;
  if (hard === 1) return { label, prediction, hard, soft: hard };
  const shown = label ?? prediction;
  return {
    label,
    prediction,
    hard,
    soft: hard,
    failReason: `MCQ=0: predicted '${shown}' but expected '${correct.label}'`,
  };
}
