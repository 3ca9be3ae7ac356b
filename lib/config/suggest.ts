/** "Did you mean …?" for unknown config keys. */

/** Optimal-string-alignment distance: Levenshtein plus adjacent transpositions ("bacth" → "batch" is 1). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++)
    rows.push(Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** How many edits still count as a typo for a key of this length. */
function tolerance(length: number): number {
  return length <= 4 ? 1 : length <= 9 ? 2 : 3;
}

/** A known key a user may have meant: its leaf name and the dotted path to suggest. */
export interface KeyCandidate {
  leaf: string;
  dotted: string;
}

/**
 * The closest candidate to an unknown `section.leaf`, compared by leaf name so that a key in the
 * wrong section (`train.learning_rate`) still finds its home; ties prefer the same section.
 */
export function suggestKey(section: string, leaf: string, candidates: readonly KeyCandidate[]): string | null {
  const wanted = leaf.toLowerCase();
  let best: { dotted: string; score: number } | null = null;
  for (const c of candidates) {
    const distance = editDistance(wanted, c.leaf.toLowerCase());
    if (distance > tolerance(wanted.length)) continue;
    const score = distance * 2 + (c.dotted.startsWith(`${section}.`) ? 0 : 1);
    if (best === null || score < best.score) best = { dotted: c.dotted, score };
  }
  return best && best.dotted !== `${section}.${leaf}` ? best.dotted : null;
}
