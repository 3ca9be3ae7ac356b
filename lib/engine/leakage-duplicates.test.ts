import { describe, expect, it } from "vitest";
import { findDuplicates, normaliseText, type DuplicatePair, type ItemText, type SplitName } from "./leakage";
import { PyRandom } from "./py-random";

function shingles(words: readonly string[], n: number): Set<string> {
  const out = new Set<string>();
  if (words.length < n) {
    if (words.length > 0) out.add(words.join(" "));
    return out;
  }
  for (let i = 0; i + n <= words.length; i++) out.add(words.slice(i, i + n).join(" "));
  return out;
}

/** The plain pairwise comparison (every candidate pair's shingle sets intersected): the result to match. */
function referenceDuplicates(items: readonly ItemText[], threshold = 0.8, n = 3): DuplicatePair[] {
  const prepared = items
    .map((it) => ({ it, norm: normaliseText(it.question) }))
    .filter((p) => p.norm !== "")
    .map((p) => ({ ...p, sh: shingles(p.norm.split(" "), n) }));
  const out: DuplicatePair[] = [];
  prepared.forEach((p, i) => {
    for (let j = i + 1; j < prepared.length; j++) {
      const q = prepared[j]!;
      if (q.it.split === p.it.split) continue;
      let inter = 0;
      for (const s of p.sh) if (q.sh.has(s)) inter++;
      if (inter === 0) continue;
      const exact = p.norm === q.norm;
      const similarity = exact ? 1 : inter / (p.sh.size + q.sh.size - inter);
      if (exact || similarity >= threshold)
        out.push({ a: { id: p.it.id, split: p.it.split }, b: { id: q.it.id, split: q.it.split }, similarity, exact });
    }
  });
  return out;
}

const SPLITS: SplitName[] = ["train", "val", "test"];
const WORDS = ["what", "is", "the", "capital", "of", "france", "who", "wrote", "it", "year", "A", "b!"];

/** Random items from a small vocabulary, many sharing shingles, some repeated, splits interleaved. */
function randomItems(rng: PyRandom, count: number): ItemText[] {
  const base = Array.from({ length: 1 + rng.randbelow(8) }, () =>
    Array.from({ length: rng.randbelow(9) }, () => WORDS[rng.randbelow(WORDS.length)]!),
  );
  return Array.from({ length: count }, (_, i) => {
    const words = [...base[rng.randbelow(base.length)]!];
    if (rng.random() < 0.5 && words.length > 0)
      words[rng.randbelow(words.length)] = WORDS[rng.randbelow(WORDS.length)]!;
    if (rng.random() < 0.3) words.push(WORDS[rng.randbelow(WORDS.length)]!);
    return { id: `i${i}`, split: SPLITS[rng.randbelow(3)]!, question: words.join(" "), golds: [] };
  });
}

describe("findDuplicates against the pairwise comparison", () => {
  it("gives the same pairs, in the same order, with the same similarities, over random item sets", () => {
    const rng = new PyRandom(14);
    for (let trial = 0; trial < 200; trial++) {
      const items = randomItems(rng, 1 + rng.randbelow(60));
      const threshold = [0.8, 0.5, 0.3, 1][trial % 4]!;
      const shingle = 1 + (trial % 4);
      expect(findDuplicates(items, { threshold, shingle }), `trial ${trial}`).toEqual(
        referenceDuplicates(items, threshold, shingle),
      );
    }
  });
});
