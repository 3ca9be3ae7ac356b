/**
 * The selection gate (spec §7.8): project (hard, soft) onto one gate score, optionally add a
 * semantic-density bonus, and decide whether a candidate becomes current and/or best. All comparisons
 * are strict, so ties never move the incumbent.
 */
import { pyStrip } from "./py-format";
import { APPENDIX_END, APPENDIX_START, SLOW_UPDATE_END, SLOW_UPDATE_START, stripMarkedBlocks } from "./protected";
import type { GateAction, GateMetric } from "./types";

/** Directive words whose share of the skill's tokens is the density bonus (spec §7.8). */
export const DEFAULT_LEADING_WORDS: readonly string[] = [
  "MUST",
  "ALWAYS",
  "NEVER",
  "ONLY",
  "CRITICAL",
  "IMPORTANT",
  "RESOLVE",
  "PREFER",
  "ENSURE",
  "STRICT",
  "VERIFY",
];

/** Code default of `evaluation.semantic_density_weight`. */
export const DEFAULT_DENSITY_WEIGHT = 0.05;

const GATE_METRICS: readonly GateMetric[] = ["hard", "soft", "mixed"];

/**
 * Normalise the `leading_words` config value as the original: null/undefined means "use the defaults";
 * a comma-separated string is split, entries trimmed and empties dropped; a list is taken as given. An
 * empty result (`[]`, `""`, `" , "`) is kept: no leading words, so the density is 0.
 */
export function parseLeadingWords(v: readonly string[] | string | null | undefined): string[] | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== "string") return v.filter((w): w is string => typeof w === "string");
  return v
    .split(",")
    .map(pyStrip)
    .filter((w) => w !== "");
}

/**
 * Share of leading words among the tokens of the skill body. The protected tail (slow update, appendix)
 * is excluded so machine-written guidance cannot inflate the bonus. Stray END markers are not removed
 * and contribute their tokens, as in the original. `words` null/undefined → the defaults; [] → 0.
 */
export function semanticDensity(text: string, words?: readonly string[] | null): number {
  if (pyStrip(text) === "") return 0;
  let body = stripMarkedBlocks(text, SLOW_UPDATE_START, SLOW_UPDATE_END);
  body = stripMarkedBlocks(body, APPENDIX_START, APPENDIX_END);
  const tokens = body.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  if (tokens.length === 0) return 0;
  const list = words ?? DEFAULT_LEADING_WORDS;
  const set = new Set(list.map((w) => w.toLowerCase()));
  let hits = 0;
  for (const t of tokens) if (set.has(t)) hits++;
  return hits / tokens.length;
}

export interface GateScoreOptions {
  hard: number;
  soft: number;
  metric: string;
  mixedWeight: number;
  /** The candidate skill text; only read when the density bonus is on. */
  skill?: string;
  useDensity?: boolean;
  densityWeight?: number;
  leadingWords?: readonly string[] | null;
}

/** One number per candidate: the metric's projection of (hard, soft) plus the optional density bonus. */
export function gateScore(opts: GateScoreOptions): number {
  const { hard, soft, metric } = opts;
  let base: number;
  if (metric === "hard") base = hard;
  else if (metric === "soft") base = soft;
  else if (metric === "mixed") {
    const w = Math.min(1, Math.max(0, opts.mixedWeight));
    base = (1 - w) * hard + w * soft;
  } else {
    throw new Error(`unknown gate metric ${JSON.stringify(metric)}; expected one of ${GATE_METRICS.join(", ")}`);
  }
  if (opts.useDensity) {
    const weight = opts.densityWeight ?? DEFAULT_DENSITY_WEIGHT;
    base += weight * semanticDensity(opts.skill ?? "", opts.leadingWords);
  }
  return base;
}

/** The outcome of one gate decision; the caller applies it to its own state. */
export interface GateDecision {
  action: GateAction;
  currentScore: number;
  bestScore: number;
  bestStep: number;
  candidateBecomesCurrent: boolean;
  candidateBecomesBest: boolean;
}

export interface DecideGateOptions {
  /** The candidate's own score: the one stored when it becomes current or best. */
  candidateScore: number;
  currentScore: number;
  bestScore: number;
  bestStep: number;
  /** The global step credited when the candidate becomes best. */
  step: number;
  useGate: boolean;
  /**
   * [candidate, incumbent] scores over the items both skills answered, when they differ from the stored
   * scores (some items went unanswered); the comparisons use these instead.
   */
  vsCurrent?: readonly [number, number];
  vsBest?: readonly [number, number];
  /** `evaluation.gate_rule: significant`: a gated candidate must also be a significant improvement. */
  requireSignificance?: boolean;
  /** Whether the paired improvement over the current skill is significant (gate evidence). */
  significant?: boolean;
}

/**
 * Pure gate decision. Gated: accept only when strictly above current, and a new best only when strictly
 * above best. Ungated: always force-accept as current, still a new best only when strictly above best.
 */
export function decideGate(opts: DecideGateOptions): Readonly<GateDecision> {
  const { candidateScore: c, currentScore, bestScore, bestStep, step, useGate } = opts;
  const [cb, b] = opts.vsBest ?? [c, bestScore];
  const [cc, cur] = opts.vsCurrent ?? [c, currentScore];
  const beatsBest = cb > b;
  let decision: GateDecision;
  if (!useGate) {
    decision = {
      action: "force_accept",
      currentScore: c,
      bestScore: beatsBest ? c : bestScore,
      bestStep: beatsBest ? step : bestStep,
      candidateBecomesCurrent: true,
      candidateBecomesBest: beatsBest,
    };
  } else if (cc > cur && (!opts.requireSignificance || opts.significant === true)) {
    decision = {
      action: beatsBest ? "accept_new_best" : "accept",
      currentScore: c,
      bestScore: beatsBest ? c : bestScore,
      bestStep: beatsBest ? step : bestStep,
      candidateBecomesCurrent: true,
      candidateBecomesBest: beatsBest,
    };
  } else {
    decision = {
      action: "reject",
      currentScore,
      bestScore,
      bestStep,
      candidateBecomesCurrent: false,
      candidateBecomesBest: false,
    };
  }
  return Object.freeze(decision);
}
