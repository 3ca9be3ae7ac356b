/**
 * DocVQA scoring: ANLS (average normalised Levenshtein similarity) with threshold 0.5, the benchmark's
 * official metric. hard = 1 iff ANLS ≥ 0.999 (an exact answer up to case and spacing), soft = ANLS.
 */
import { formatList } from "../common/answer";
import { isRecord } from "../common/read-items";
import { parsePythonLiteral } from "./py-literal";

/** Similarities at or below 1 − threshold count as 0 (the standard ANLS cut-off). */
export const ANLS_THRESHOLD = 0.5;
/** ANLS at or above this is a hard success. */
export const HARD_THRESHOLD = 0.999;

/**
 * The predicted answer: the text between the LAST `<answer>` and the last `</answer>` (case-insensitive),
 * else the last non-empty line, else "". Trimmed.
 */
export function extractDocVqaAnswer(reply: string): string {
  const lower = reply.toLowerCase();
  const open = lower.lastIndexOf("<answer>");
  const close = lower.lastIndexOf("</answer>");
  if (open >= 0 && close > open) return reply.slice(open + "<answer>".length, close).trim();
  const lines = reply
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  return lines[lines.length - 1] ?? "";
}

function fromParsed(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === "string") return [value];
  if (typeof value === "number" || typeof value === "boolean") return [String(value)];
  if (Array.isArray(value)) {
    return value.flatMap((v) => (isRecord(v) ? fromParsed(v.text ?? v.answer ?? v.value) : fromParsed(v)));
  }
  if (isRecord(value)) return fromParsed(value.answers ?? value.ground_truth ?? value.answer);
  return [];
}

/**
 * A string cell that holds a JSON or Python-literal list/dict → its value; else the string itself. Only
 * `[…]` and `{…}` are parsed: a parenthesised gold such as "(675)" is an answer, not a tuple.
 */
function parseCell(text: string): unknown {
  const t = text.trim();
  if (!/^[[{]/.test(t)) return text;
  try {
    return JSON.parse(t);
  } catch {
    const py = parsePythonLiteral(t);
    return py === undefined ? text : py;
  }
}

/**
 * Gold answers from any of the shapes DocVQA data uses: a plain string, a JSON or Python-literal list
 * string (`['a', "b's"]`), a list, a dict with `answers|ground_truth|answer`, list items that are dicts
 * with `text|answer|value`. Values are kept as given (no trimming beyond what the metric does).
 */
export function extractGoldAnswers(value: unknown): string[] {
  if (typeof value === "string") {
    const parsed = parseCell(value);
    return typeof parsed === "string" ? [parsed] : extractGoldAnswers(parsed);
  }
  return fromParsed(value);
}

/** trim → lowercase → collapse whitespace; punctuation is kept. */
export function normaliseAnls(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t !== "")
    .join(" ");
}

/** Levenshtein distance over Unicode code points. */
export function levenshtein(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost));
    }
    prev = row;
  }
  return prev[t.length] as number;
}

/** Similarity of one prediction to one gold: 1 − NL, or 0 when NL ≥ 0.5; both empty → 1, one empty → 0. */
export function anlsOne(prediction: string, gold: string): number {
  const p = normaliseAnls(prediction);
  const g = normaliseAnls(gold);
  if (p === "" && g === "") return 1;
  if (p === "" || g === "") return 0;
  const nl = levenshtein(p, g) / Math.max(Array.from(p).length, Array.from(g).length);
  return nl >= ANLS_THRESHOLD ? 0 : 1 - nl;
}

/**
 * ANLS of a prediction: the best similarity over the golds. An empty gold list counts as [""], as in the
 * original: only an empty prediction scores 1.
 */
export function anls(prediction: string, golds: readonly string[]): number {
  const targets = golds.length === 0 ? [""] : golds;
  return targets.reduce((best, g) => Math.max(best, anlsOne(prediction, g)), 0);
}

/** The scored answer of one reply. */
export interface DocVqaScore {
  prediction: string;
  hard: number;
  soft: number;
  /** Set whenever hard is 0; see `scoreDocVqa`. */
  failReason?: string;
}

/**
 * Extracts the answer of `reply` and scores it. The original sets a failure reason only when ANLS is 0;
 * here a near miss (0 < ANLS < 0.999, hard 0) also gets one, marked as such, because the analyst learns
 * most from seeing that a reply was close but not exact (extra words, another date format…).
 */
export function scoreDocVqa(reply: string, golds: readonly string[]): DocVqaScore {
  const prediction = extractDocVqaAnswer(reply);
  const soft = anls(prediction, golds);
  const hard = soft >= HARD_THRESHOLD ? 1 : 0;
  if (hard === 1) return { prediction, hard, soft };
  const expected = formatList(golds);
  if (soft <= 0)
    return { prediction, hard, soft, failReason: `ANLS=0: predicted '${prediction}' but expected ${expected}` };
  return {
    prediction,
    hard,
    soft,
    failReason: `ANLS=${soft.toFixed(3)} (near miss, not exact): predicted '${prediction}' but expected ${expected}`,
  };
}
