import { describe, expect, it } from "vitest";
import { RunConfigSchema } from "../contracts/run-config";
import type { RunContext } from "./context";
import { candidateUpperBound, rejectIsCertain, type ItemHard } from "./early-decision";
import { decideGate } from "./gate";
import { answeredScore, outcomesOf } from "./outcomes";
import { compareOnSelection, gateScoreOf, type SelectionScore } from "./phases/evaluate";
import { statusCounts } from "./outcomes";
import type { TrainState } from "./state";
import type { Trajectory } from "./types";

/** A seeded PRNG (mulberry32) so a failing case can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rows = (xs: readonly ItemHard[]): Trajectory[] =>
  xs.map((h, i) =>
    h === null
      ? { id: `i${i}`, hard: 0, soft: 0, status: "error", failReason: "error: x", conversation: [] }
      : { id: `i${i}`, hard: h, soft: h, status: "ok", conversation: [] },
  );

/** The step gate's action for a fully scored candidate, through the engine's own compare and decide. */
function gateAction(cand: ItemHard[], inc: ItemHard[], incScore: number, maxErrorShare: number): string {
  const cfg = RunConfigSchema.parse({ evaluation: { gate_metric: "hard", max_error_share: maxErrorShare } });
  const ctx = { cfg } as unknown as RunContext;
  const st = { selOutcomes: { inc: outcomesOf(rows(inc)) } } as unknown as TrainState;
  const r = rows(cand);
  const s = answeredScore(r);
  const sel: SelectionScore = {
    ...s,
    cached: false,
    results: r,
    hash: "cand",
    outcomes: outcomesOf(r),
    nItems: r.length,
    counts: statusCounts(r),
  };
  const gate = gateScoreOf(ctx, s, "skill");
  const cur = compareOnSelection(ctx, st, { sel, gate, skill: "skill" }, { score: incScore, skill: "x", ref: "inc" });
  if (cur.skipReason !== null) return "skip_errors";
  return decideGate({
    candidateScore: gate,
    currentScore: incScore,
    bestScore: incScore,
    bestStep: 0,
    step: 1,
    useGate: true,
    vsCurrent: [cur.candidate, cur.incumbent],
    vsBest: [cur.candidate, cur.incumbent],
  }).action;
}

function randomOutcome(r: () => number, pNull: number, fractional: boolean): ItemHard {
  if (r() < pNull) return null;
  if (fractional && r() < 0.3) return Math.round(r() * 1000) / 1000;
  return r() < 0.5 ? 1 : 0;
}

describe("early gate decision", () => {
  it("never changes a decision (property test over random item scores and scoring orders)", () => {
    let early = 0;
    let cases = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const r = rng(seed);
      const n = 1 + Math.floor(r() * 40);
      const pNull = r() < 0.5 ? 0 : r() * 0.3;
      const fractional = r() < 0.3;
      const maxErrorShare = [0, 0.1, 0.2, 0.5, 1][Math.floor(r() * 5)]!;
      const inc = Array.from({ length: n }, () => randomOutcome(r, pNull, fractional));
      // The incumbent's stored score is its own mean over its answered items, as the engine stores it.
      const incScore = answeredScore(rows(inc)).hard;
      const bias = r();
      const cand = Array.from({ length: n }, () => (r() < bias ? randomOutcome(r, pNull, fractional) : 0));
      const truth = gateAction(cand, inc, incScore, maxErrorShare);
      const order = Array.from({ length: n }, (_, i) => i).sort(() => r() - 0.5);
      const seen: Array<ItemHard | undefined> = new Array<ItemHard | undefined>(n).fill(undefined);
      for (const i of order) {
        seen[i] = cand[i];
        cases++;
        if (rejectIsCertain({ incumbent: inc, incumbentScore: incScore, candidate: seen, maxErrorShare })) {
          early++;
          if (truth !== "reject") throw new Error(`seed ${seed}: decided reject early, the gate says ${truth}`);
          expect(candidateUpperBound(seen)).toBeGreaterThanOrEqual(answeredScore(rows(cand)).hard - 1e-9);
          break;
        }
      }
    }
    // The property is not vacuous: many cases did stop early.
    expect(early).toBeGreaterThan(300);
    expect(cases).toBeGreaterThan(10_000);
  });

  it("stops once the remaining items cannot lift the candidate above the incumbent", () => {
    const inc = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0];
    const incScore = 0.8;
    const x = (candidate: Array<ItemHard | undefined>) =>
      rejectIsCertain({ incumbent: inc, incumbentScore: incScore, candidate, maxErrorShare: 0.2 });
    const u = undefined;
    expect(x([0, 0, 1, 1, 1, 1, 1, 1, u, u])).toBe(true); // at best 8/10 = 0.8: not strictly higher
    expect(x([0, 1, 1, 1, 1, 1, 1, 1, u, u])).toBe(false); // 9/10 would win
    expect(x([0, 0, 1, 1, 1, 1, 1, u, u, u])).toBe(false); // three unanswered items could exceed 20 %: a skip
    expect(x([0, 0, 1, 1, 1, 1, 1, 1, 0, 0])).toBe(false); // nothing left to save
  });

  it("the upper bound counts every remaining item as solved", () => {
    expect(candidateUpperBound([1, 0, undefined, null])).toBeCloseTo(2 / 3);
    expect(candidateUpperBound([null])).toBe(0);
  });
});
