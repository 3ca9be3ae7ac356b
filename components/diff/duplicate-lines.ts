/**
 * Repeated lines in a skill (pure): a line that says again what an earlier line says, verbatim or nearly.
 * Lines are compared after normalising case, list markers, punctuation and spacing; "near" means the word
 * sets overlap by at least `threshold` (Jaccard). Headings, blank lines and short lines (fewer than
 * `minWords` words) are ignored — "## Rules" twice or "---" is structure, not repetition.
 */

export interface RepeatedLine {
  /** 1-based line number of the repetition. */
  line: number;
  /** 1-based line number of the earlier line it repeats. */
  of: number;
  kind: "exact" | "near";
  /** Word-set similarity in [0, 1] (1 for an exact repeat). */
  similarity: number;
  text: string;
}

const MAX_LINES = 3_000;

export function normaliseLine(line: string): string {
  return line
    .toLowerCase()
    .replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, "")
    .replace(/[`*_"'“”‘’()[\]{}.,;:!?]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  return inter / (a.size + b.size - inter);
}

export function findRepeatedLines(text: string, { threshold = 0.8, minWords = 5 } = {}): RepeatedLine[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n").slice(0, MAX_LINES);
  const seen: Array<{ line: number; norm: string; words: Set<string> }> = [];
  const exact = new Map<string, number>();
  const out: RepeatedLine[] = [];
  lines.forEach((raw, i) => {
    if (/^\s*#/.test(raw)) return;
    const norm = normaliseLine(raw);
    const tokens = norm.split(" ").filter(Boolean);
    if (tokens.length < minWords) return;
    const line = i + 1;
    const first = exact.get(norm);
    if (first !== undefined) {
      out.push({ line, of: first, kind: "exact", similarity: 1, text: raw.trim() });
      return;
    }
    const words = new Set(tokens);
    let best: { of: number; sim: number } | null = null;
    for (const s of seen) {
      // Sizes too far apart cannot reach the threshold: skip the set walk.
      if (Math.min(s.words.size, words.size) / Math.max(s.words.size, words.size) < threshold) continue;
      const sim = jaccard(s.words, words);
      if (sim >= threshold && (!best || sim > best.sim)) best = { of: s.line, sim };
    }
    if (best) out.push({ line, of: best.of, kind: "near", similarity: best.sim, text: raw.trim() });
    exact.set(norm, line);
    seen.push({ line, norm, words });
  });
  return out;
}
