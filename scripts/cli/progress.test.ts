import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../../lib/contracts/events";
import { describeStoredEvent } from "../../lib/contracts/event-summary";
import { leanPayload } from "../../lib/contracts/stored-events";
import { createProgress, describeEvent } from "./progress";
import { formatSummary } from "./summary";

const gate = (o: Partial<Extract<EngineEvent, { type: "gateDecided" }>> = {}): EngineEvent => ({
  type: "gateDecided",
  step: 3,
  action: "accept",
  candidateScore: 0.9,
  currentScoreBefore: 0.6,
  currentScore: 0.9,
  bestScore: 0.9,
  bestStep: 3,
  nItems: 10,
  nPaired: 10,
  nErrors: 0,
  nTimeouts: 0,
  nTruncated: 0,
  candidatePairedScore: 0.9,
  currentPairedScore: 0.6,
  reason: null,
  ...o,
});

describe("CLI progress lines", () => {
  it("a gate decision on every item", () => {
    expect(describeEvent(gate(), 9)).toBe("[step 3/9] gate: accept (candidate 0.900 vs current 0.600, best 0.900)");
  });

  it("shows the paired scores and what they were taken over when items went unanswered", () => {
    const e = gate({ nPaired: 7, nErrors: 2, nTruncated: 1, candidatePairedScore: 0.857, currentPairedScore: 0.714 });
    expect(describeEvent(e, 9)).toBe(
      "[step 3/9] gate: accept (candidate 0.857 vs current 0.714, best 0.900; scored on 7 of 10 items (2 errors, 1 truncated))",
    );
  });

  it("says why a step was skipped", () => {
    const reason =
      "4 of 10 selection items were not answered by both skills (4 errors), more than evaluation.max_error_share = 0.2";
    const e = gate({ action: "skip_errors", nPaired: 6, nErrors: 4, reason });
    expect(describeEvent(e, 9)).toContain(
      `gate: skip_errors (candidate 0.900 vs current 0.600, best 0.900; scored on 6 of 10 items (4 errors) — ${reason})`,
    );
  });

  it("says who reviewed a gate decision and what they decided, as the event log does", () => {
    const review = { decision: "reject", source: "reviewer", automatic: "accept", action: "reject" } as const;
    const e = gate({ action: "reject", review: { ...review, note: "too long", author: "dana" } });
    const line = describeEvent(e, 9);
    expect(line).toBe(
      "[step 3/9] gate: reject (candidate 0.900 vs current 0.600, best 0.900); rejected by dana (gate said accept) — “too long”",
    );
    expect(line).toBe(`[step 3/9] ${describeStoredEvent(leanPayload(e))}`);
  });

  it("counts unanswered rollout items apart", () => {
    const e: EngineEvent = {
      type: "rolloutCompleted",
      step: 1,
      hard: 0.5,
      soft: 0.5,
      n: 10,
      nErrors: 1,
      nTimeouts: 0,
      nTruncated: 2,
      results: [],
    };
    expect(describeEvent(e, 9)).toBe(
      "[step 1/9] rollout hard 0.500 soft 0.500 on 10 items (1 error, 2 truncated not answered)",
    );
  });

  it("every event gets its own line, the event log's sentence; events without a step have no step prefix", () => {
    const events: EngineEvent[] = [
      { type: "stepStarted", step: 2, epoch: 1, stepInEpoch: 2 },
      { type: "epochCompleted", epoch: 1, currentScore: 0.5, bestScore: 0.75 },
      { type: "runPaused", reason: "budget.max_calls reached", step: 4 },
      { type: "runCompleted", stopReason: "completed", bestSkill: "# s", summary: {} },
      {
        type: "runCompleted",
        stopReason: "gate_patience: 3 consecutive rejected candidates",
        bestSkill: "",
        summary: {},
      },
    ];
    expect(events.map((e) => describeEvent(e, 6))).toEqual([
      "[step 2/6] started: epoch 1, step 2 of the epoch",
      "epoch 1 done: current 0.500, best 0.750",
      "[step 4/6] paused at step 4: budget.max_calls reached",
      "completed",
      "completed early: gate_patience: 3 consecutive rejected candidates",
    ]);
  });

  it("plain output writes one line per event", () => {
    const lines: string[] = [];
    const stream = { isTTY: false, write: (s: string) => lines.push(s) } as unknown as NodeJS.WriteStream;
    const p = createProgress({ stream, phaseTotals: { train: 1, selection: 1, test: 1, longitudinal: 1 } });
    p.onEvent({
      type: "runStarted",
      totalSteps: 9,
      stepsPerEpoch: 3,
      numEpochs: 3,
      trainSize: 10,
      selectionSize: 5,
      testSize: 5,
      resumedFromStep: 0,
    });
    p.onEvent(gate());
    expect(lines).toEqual([
      "training: 3 epochs × 3 steps, 10 train / 5 selection / 5 test items\n",
      "[step 3/9] gate: accept (candidate 0.900 vs current 0.600, best 0.900)\n",
    ]);
  });
});

describe("CLI summary", () => {
  const base = {
    stop_reason: "completed",
    baseline_selection_hard: 0.5,
    best_selection_hard: 0.7,
    best_step: 2,
    total_steps: 4,
    total_accepts: 1,
    total_rejects: 1,
    total_skips: 0,
  };
  it("counts steps skipped for unanswered items and a final skill that could not be compared", () => {
    const text = formatSummary(
      {
        ...base,
        total_error_skips: 2,
        final_selection_skip_reason: "no selection item was answered by both skills (10 errors)",
      },
      { outDir: "out", simulated: false },
    );
    expect(text).toContain("4 (1 accepted, 1 rejected, 0 skipped, 2 skipped: too many items not answered)");
    expect(text).toContain(
      "final skill          not compared with best: no selection item was answered by both skills (10 errors)",
    );
  });
  it("reads as before without them", () => {
    expect(formatSummary(base, { outDir: "out", simulated: false })).toContain(
      "4 (1 accepted, 1 rejected, 0 skipped)\n",
    );
  });
});
