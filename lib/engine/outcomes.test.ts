import { describe, expect, it } from "vitest";
import { decideGate } from "./gate";
import { answeredScore, outcomesOf, pairOutcomes, statusCounts } from "./outcomes";
import { computeScore } from "./scoring";
import type { Trajectory, TrajectoryStatus } from "./types";

const row = (id: string, hard: number, status: TrajectoryStatus = "ok", soft = hard): Trajectory => ({
  id,
  hard,
  soft,
  status,
  conversation: [],
});

describe("answered-only scores", () => {
  it("leaves errors, timeouts and truncations out of the mean instead of counting them as 0", () => {
    const rows = [row("a", 1), row("b", 0), row("c", 0, "error"), row("d", 0, "timeout"), row("e", 0, "truncated")];
    expect(answeredScore(rows)).toEqual({ hard: 0.5, soft: 0.5 });
    expect(computeScore(rows).hard).toBeCloseTo(0.2, 12); // what the old rule reported
    expect(statusCounts(rows)).toEqual({ nErrors: 1, nTimeouts: 1, nTruncated: 1 });
  });

  it("equals the plain mean when every row was answered", () => {
    const rows = [row("a", 1, "ok", 0.9), row("b", 0, "ok", 0.3), row("c", 1, "ok", 0.7)];
    expect(answeredScore(rows)).toEqual(computeScore(rows));
  });

  it("keeps (hard, soft) of answered items and the reason of the others", () => {
    expect(outcomesOf([row("a", 1, "ok", 0.5), row("b", 0, "truncated")])).toEqual({ a: [1, 0.5], b: "truncated" });
  });
});

describe("pairOutcomes", () => {
  const current = outcomesOf([row("v0", 0), row("v1", 1), row("v2", 1), row("v3", 0), row("v4", 1)]);

  it("scores both sides over the items both answered when the candidate errored", () => {
    const cand = outcomesOf([row("v0", 1), row("v1", 0, "error"), row("v2", 1), row("v3", 1), row("v4", 0, "error")]);
    const p = pairOutcomes(cand, current);
    expect(p).toMatchObject({
      nItems: 5,
      nPaired: 3,
      excluded: { nErrors: 2, nTimeouts: 0, nTruncated: 0 },
      complete: false,
    });
    expect(p.a.hard).toBe(1); // v0 v2 v3
    expect(p.b.hard).toBeCloseTo(1 / 3, 12);
  });

  it("drops items unanswered on either side, counting each once (the candidate's reason first)", () => {
    const cur = outcomesOf([row("v0", 0, "timeout"), row("v1", 1), row("v2", 1, "error"), row("v3", 0), row("v4", 1)]);
    const cand = outcomesOf([row("v0", 1), row("v1", 1), row("v2", 0, "truncated"), row("v3", 1), row("v4", 0)]);
    const p = pairOutcomes(cand, cur);
    expect(p.nPaired).toBe(3);
    expect(p.excluded).toEqual({ nErrors: 0, nTimeouts: 1, nTruncated: 1 });
    expect(p.a.hard).toBeCloseTo(2 / 3, 12);
    expect(p.b.hard).toBeCloseTo(2 / 3, 12);
  });

  it("is complete, with the plain means, when nothing was left out", () => {
    const cand = outcomesOf([row("v0", 1), row("v1", 1), row("v2", 1), row("v3", 0), row("v4", 1)]);
    expect(pairOutcomes(cand, current)).toMatchObject({
      nPaired: 5,
      complete: true,
      a: { hard: 0.8 },
      b: { hard: 0.6 },
    });
  });

  it("scores nothing when no item was answered by both", () => {
    const cand = outcomesOf([row("v0", 1), row("v1", 0, "error")]);
    const cur = outcomesOf([row("v0", 0, "error"), row("v1", 1)]);
    expect(pairOutcomes(cand, cur)).toMatchObject({ nPaired: 0, a: { hard: 0 }, b: { hard: 0 }, complete: false });
  });
});

describe("decideGate with paired comparisons", () => {
  const base = { candidateScore: 0.5, currentScore: 0.6, bestScore: 0.6, bestStep: 0, step: 3, useGate: true };

  it("decides on the paired scores and stores the candidate's own score", () => {
    const d = decideGate({ ...base, vsCurrent: [1, 0.4], vsBest: [1, 0.4] });
    expect(d).toMatchObject({ action: "accept_new_best", currentScore: 0.5, bestScore: 0.5, bestStep: 3 });
  });

  it("can beat current on its pairing without beating best on another", () => {
    const d = decideGate({ ...base, vsCurrent: [0.7, 0.5], vsBest: [0.7, 0.7] });
    expect(d).toMatchObject({ action: "accept", candidateBecomesBest: false, bestScore: 0.6 });
  });

  it("rejects a paired tie, like any tie", () => {
    expect(decideGate({ ...base, candidateScore: 0.9, vsCurrent: [0.5, 0.5], vsBest: [0.5, 0.5] }).action).toBe(
      "reject",
    );
  });
});
