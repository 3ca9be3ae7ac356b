/**
 * Leakage and test-peek checks (pure). Two questions a practitioner asks before trusting a score:
 * - do the same (or nearly the same) items sit in two splits? Exact duplicates by normalised question
 *   text, near duplicates by word-shingle Jaccard similarity at or above a threshold;
 * - does a skill memorise evaluation data? A line holding a selection or test gold answer verbatim (a
 *   distinctive one: see `isDistinctiveGold`) or a run of `questionRun` consecutive words of an item's
 *   question is flagged with the line and the item.
 * Items are read through their common fields (question / instruction; answers / answer / ground_truth;
 * LiveMath's correct choice text); items without text (ALFWorld games) take no part.
 */
import type { Item } from "./types";

export type SplitName = "train" | "val" | "test";
export const SPLIT_NAMES: readonly SplitName[] = ["train", "val", "test"];

export interface ItemText {
  id: string;
  split: SplitName;
  question: string;
  golds: string[];
}

export interface DuplicatePair {
  a: { id: string; split: SplitName };
  b: { id: string; split: SplitName };
  /** 1 for the same normalised text. */
  similarity: number;
  exact: boolean;
}

export interface MemorisedLine {
  /** 1-based line number in the skill. */
  line: number;
  text: string;
  itemId: string;
  split: SplitName;
  kind: "gold" | "question";
  /** The gold answer or the run of question words found in the line. */
  match: string;
}

export interface LeakageOptions {
  /** Word-shingle Jaccard at or above which two items are near duplicates (default 0.8). */
  threshold?: number;
  /** Words per shingle (default 3). */
  shingle?: number;
  /** Consecutive question words that count as the item's distinctive text in a skill line (default 8). */
  questionRun?: number;
}

const str = (v: unknown): string | null =>
  typeof v === "string" && v.trim() !== "" ? v : typeof v === "number" ? String(v) : null;

/** Lower case, compatibility forms folded, punctuation to spaces, whitespace collapsed. */
export function normaliseText(s: string): string {
  return s
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function goldsOf(item: Item): string[] {
  const out: string[] = [];
  const answers = item.answers;
  if (Array.isArray(answers)) for (const a of answers) out.push(...[str(a)].filter((x): x is string => x !== null));
  for (const key of ["answer", "ground_truth"]) {
    const v = str(item[key]);
    if (v !== null) out.push(v);
  }
  // LiveMath: the gold is a choice label; its text is what a skill could memorise.
  const label = str(item.correct_choice);
  if (label !== null && Array.isArray(item.choices)) {
    const choice = (item.choices as { label?: unknown; text?: unknown }[]).find((c) => c?.label === label);
    const text = str(choice?.text);
    if (text !== null) out.push(text);
  }
  return [...new Set(out)];
}

/** The text of an item the checks compare, or null for items without any (ALFWorld games). */
export function itemTextOf(item: Item, split: SplitName): ItemText | null {
  const question = str(item.question) ?? str(item.instruction) ?? str(item.prompt) ?? "";
  const golds = goldsOf(item);
  if (question === "" && golds.length === 0) return null;
  return { id: item.id, split, question, golds };
}

export function itemTexts(splits: Readonly<Record<SplitName, readonly Item[]>>): ItemText[] {
  return SPLIT_NAMES.flatMap((s) => splits[s].map((it) => itemTextOf(it, s)).filter((t): t is ItemText => t !== null));
}

function shingles(words: readonly string[], n: number): Set<string> {
  const out = new Set<string>();
  if (words.length < n) {
    if (words.length > 0) out.add(words.join(" "));
    return out;
  }
  for (let i = 0; i + n <= words.length; i++) out.add(words.slice(i, i + n).join(" "));
  return out;
}

/**
 * Pairs of items in different splits with the same or nearly the same question, each pair once (a before
 * b in input order), by a's position and then b's. One index of shingle → items per split, items in input
 * order; an item meets only the later items of other splits that share a shingle, and how many it shares
 * with each is counted on the way (the intersection), so no pair's shingle sets are compared again. A
 * 10,000-item split of near-identical questions made the pairwise comparison take over a second.
 */
export function findDuplicates(items: readonly ItemText[], opts: LeakageOptions = {}): DuplicatePair[] {
  const threshold = opts.threshold ?? 0.8;
  const n = opts.shingle ?? 3;
  const prepared = items
    .map((it) => ({ it, norm: normaliseText(it.question) }))
    .filter((p) => p.norm !== "")
    .map((p) => ({ ...p, sh: shingles(p.norm.split(" "), n) }));
  const bySplit = new Map<SplitName, Map<string, number[]>>();
  prepared.forEach((p, i) => {
    let index = bySplit.get(p.it.split);
    if (!index) bySplit.set(p.it.split, (index = new Map()));
    for (const s of p.sh) {
      const list = index.get(s);
      if (list) list.push(i);
      else index.set(s, [i]);
    }
  });
  const out: DuplicatePair[] = [];
  prepared.forEach((p, i) => {
    const shared = new Map<number, number>();
    for (const [split, index] of bySplit) {
      if (split === p.it.split) continue;
      for (const s of p.sh) {
        const list = index.get(s);
        if (!list) continue;
        // Ascending: walk back over the later items only.
        for (let k = list.length - 1; k >= 0 && list[k]! > i; k--)
          shared.set(list[k]!, (shared.get(list[k]!) ?? 0) + 1);
      }
    }
    for (const j of [...shared.keys()].sort((x, y) => x - y)) {
      const q = prepared[j]!;
      const exact = p.norm === q.norm;
      const inter = shared.get(j)!;
      const similarity = exact ? 1 : inter / (p.sh.size + q.sh.size - inter);
      if (exact || similarity >= threshold)
        out.push({ a: { id: p.it.id, split: p.it.split }, b: { id: q.it.id, split: q.it.split }, similarity, exact });
    }
  });
  return out;
}

const TRIVIAL_GOLDS = new Set(["yes", "no", "true", "false", "none", "null", "n a", "unknown"]);

/** A gold worth flagging in a skill line: at least 4 characters, or 3 with a digit, and not a yes/no word. */
export function isDistinctiveGold(normalisedGold: string): boolean {
  if (TRIVIAL_GOLDS.has(normalisedGold)) return false;
  return normalisedGold.length >= 4 || (normalisedGold.length >= 3 && /\p{N}/u.test(normalisedGold));
}

/** Lines of `skill` that hold a selection/test gold answer or a run of an item's question words. */
export function findMemorisedLines(
  skill: string,
  items: readonly ItemText[],
  opts: LeakageOptions = {},
): MemorisedLine[] {
  const run = opts.questionRun ?? 8;
  const evaluated = items.filter((it) => it.split !== "train");
  const golds = evaluated
    .flatMap((it) => it.golds.map((g) => ({ it, gold: g, norm: normaliseText(g) })))
    .filter((g) => isDistinctiveGold(g.norm));
  const questionRuns = new Map<string, ItemText>();
  for (const it of evaluated)
    for (const s of shingles(normaliseText(it.question).split(" "), run))
      if (s.split(" ").length === run) questionRuns.set(s, it);
  const out: MemorisedLine[] = [];
  skill.split("\n").forEach((text, i) => {
    const norm = ` ${normaliseText(text)} `;
    if (norm.trim() === "") return;
    const flagged = new Set<string>();
    for (const g of golds) {
      if (!flagged.has(g.it.id) && norm.includes(` ${g.norm} `)) {
        flagged.add(g.it.id);
        out.push({ line: i + 1, text, itemId: g.it.id, split: g.it.split, kind: "gold", match: g.gold });
      }
    }
    for (const s of shingles(norm.trim().split(" "), run)) {
      const it = questionRuns.get(s);
      if (it && !flagged.has(it.id)) {
        flagged.add(it.id);
        out.push({ line: i + 1, text, itemId: it.id, split: it.split, kind: "question", match: s });
      }
    }
  });
  return out;
}

export interface LeakageCounts {
  /** Items with question text taking part in the checks. */
  items_compared: number;
  duplicates: number;
  exact_duplicates: number;
  near_duplicates: number;
  /** Flagged lines per named skill (e.g. seed, best). */
  memorised_lines: Record<string, number>;
  threshold: number;
}

/** The per-run counts for summary.json: duplicates across splits and flagged lines of each named skill. */
export function leakageCounts(
  splits: Readonly<Record<SplitName, readonly Item[]>>,
  skills: Readonly<Record<string, string>>,
  opts: LeakageOptions = {},
): LeakageCounts {
  const texts = itemTexts(splits);
  const dups = findDuplicates(texts, opts);
  const exact = dups.filter((d) => d.exact).length;
  const memorised: Record<string, number> = {};
  for (const [name, text] of Object.entries(skills)) memorised[name] = findMemorisedLines(text, texts, opts).length;
  return {
    items_compared: texts.length,
    duplicates: dups.length,
    exact_duplicates: exact,
    near_duplicates: dups.length - exact,
    memorised_lines: memorised,
    threshold: opts.threshold ?? 0.8,
  };
}
