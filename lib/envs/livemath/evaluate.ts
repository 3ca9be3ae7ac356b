/**
 * LiveMath scoring: the chosen option is read from the last `<answer>` tag (else the last line) as a
 * label (`B`, `B.`, `(b)`, `C)`…), else as the exact text of a choice, else from the first token.
 * hard = soft = 1 when it is the correct option.
 */
import { extractFinalAnswer } from "../common/answer";
import type { Choice } from "./normalise";

function cleanLabel(token: string): string {
  return token.trim().toUpperCase().replace(/^[([]+/, "").replace(/[.):\]]+$/, "").trim();
}

function sameText(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
  return norm(a) === norm(b);
}

/** The label of the option a reply chose, or null when none can be read. */
export function parseChoiceLabel(reply: string, choices: readonly Choice[]): string | null {
  const answer = extractFinalAnswer(reply);
  const labels = new Set(choices.map((c) => c.label.toUpperCase()));
  const direct = cleanLabel(answer);
  if (labels.has(direct)) return direct;
  const byText = choices.find((c) => sameText(c.text, answer));
  if (byText) return byText.label.toUpperCase();
  const first = cleanLabel(answer.split(/\s+/)[0] ?? "");
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
  const chosen = label === null ? undefined : choices.find((c) => c.label.toUpperCase() === label);
  const prediction = chosen?.text ?? extractFinalAnswer(reply);
  const hard = label !== null && label === correct.label.toUpperCase() ? 1 : 0;
  if (hard === 1) return { label, prediction, hard, soft: hard };
  const shown = label ?? prediction;
  return { label, prediction, hard, soft: hard, failReason: `MCQ=0: predicted '${shown}' but expected '${correct.label}'` };
}
