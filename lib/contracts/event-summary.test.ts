import { describe, expect, it } from "vitest";
import { describeStoredEvent, eventStep } from "./event-summary";
import { EngineEventSchema } from "./events";
import { LifecycleEventSchema } from "./run-events";
import { parseStoredEvent, type StoredRunEvent } from "./stored-events";

const none = { nErrors: 0, nTimeouts: 0, nTruncated: 0 };
const scores = { hard: 0.5, soft: 0.625 };

/** One stored event of every type, each as the schema of its type reads it back. */
const SAMPLES: StoredRunEvent[] = [
  {
    ...{ type: "runStarted", totalSteps: 6, stepsPerEpoch: 3, numEpochs: 2 },
    ...{ trainSize: 10, selectionSize: 5, testSize: 5, resumedFromStep: 0 },
  },
  { type: "baselineScored", ...scores, score: 0.5, skillHash: "h", nItems: 5, ...none, nResults: 5 },
  { type: "stepStarted", step: 1, epoch: 1, stepInEpoch: 1 },
  { type: "rolloutCompleted", step: 1, ...scores, n: 10, ...none, nResults: 10 },
  { type: "patchesProposed", step: 1, nFailurePatches: 2, nSuccessPatches: 1, nInvalid: 0, nEdits: 3 },
  { type: "patchesMerged", step: 1, nMerged: 2, fallbacks: 0, nEdits: 2 },
  { type: "editsSelected", step: 1, budget: 2, lrControlMode: "fixed", ranked: true, fallback: false, nEdits: 2 },
  { type: "candidateBuilt", step: 1, candidateHash: "abcdef123", applyReport: null },
  { type: "candidateScored", step: 1, ...scores, gateScore: 0.5, cached: false, nItems: 5, ...none, nResults: 5 },
  {
    ...{ type: "gateDecided", step: 1, action: "accept", candidateScore: 0.6, currentScoreBefore: 0.5 },
    ...{ currentScore: 0.6, bestScore: 0.6, bestStep: 1, nItems: 5, nPaired: 5, ...none },
    ...{ candidatePairedScore: 0.6, currentPairedScore: 0.5, reason: null },
  },
  {
    ...{ type: "stepCommitted", step: 1, epoch: 1, action: "accept", record: {}, currentHash: "c", bestHash: "b" },
    ...{ currentScore: 0.6, bestScore: 0.6, bestStep: 1, tokens: {} },
  },
  { type: "slowUpdateApplied", epoch: 1, action: "accept", content: "- g", selectionHard: 0.8 },
  { type: "metaSkillUpdated", epoch: 1, action: "updated", content: null },
  { type: "epochCompleted", epoch: 1, currentScore: 0.6, bestScore: 0.8 },
  { type: "testScored", which: "best", ...scores, nItems: 5, ...none, byTaskType: {}, nResults: 5 },
  {
    ...{ type: "finalSelectionChecked", step: 6, ...scores, gateScore: 1, origin: "slow_update_epoch_02" },
    ...{ skillHash: "s", promoted: true, skipReason: null, bestScore: 1, bestOrigin: "slow_update_epoch_02" },
  },
  { type: "noiseFloorMeasured", epoch: 1, scores: [0.5, 0.6], mean: 0.55, sd: 0.07, low: 0.5, high: 0.6, nItems: 5 },
  { type: "evalCompleted", split: "valid_unseen", skillHash: "h", ...scores, nItems: 5, ...none, nResults: 5 },
  { type: "runCompleted", stopReason: "completed", summary: {} },
  { type: "runFailed", message: "boom", step: null },
  { type: "runCancelled", step: 2 },
  { type: "runPaused", reason: "budget.max_usd reached", step: 2 },
  { type: "runQueued", reason: "worker shut down" },
  { type: "runClaimed", workerId: "w-1", resumed: false },
  { type: "workerLost", workerId: null, lastHeartbeatAt: null, detectedBy: "stale heartbeat" },
  { type: "runInterrupted", reason: "too many automatic restarts" },
  { type: "runResumed", fromStep: 2, superseded: [] },
  { type: "cancelRequested", status: "running" },
  { type: "runResumeRequested" },
  { type: "reviewRequested", step: 2, mode: "required", automatic: "accept", deadlineAt: null },
  { type: "reviewDecided", step: 2, decision: "reject", note: "", author: "dana" },
];

describe("describeStoredEvent", () => {
  it("has a sentence for every stored event type, with every value it names filled in", () => {
    const types = [...EngineEventSchema.options, ...LifecycleEventSchema.options].map((o) => o.shape.type.value);
    expect(SAMPLES.map((e) => e.type).sort()).toEqual([...types].sort());
    for (const e of SAMPLES) {
      // Each sample reads back with its stored schema, so the sentence is for an event as readers get it.
      const read = parseStoredEvent({ seq: 1, type: e.type, payload: JSON.stringify(e) });
      const line = describeStoredEvent(read);
      expect(line, e.type).not.toMatch(/undefined|NaN|null|\[object|^$/);
    }
  });

  it("says where the best skill was measured and names the step an event is about", () => {
    const check = SAMPLES.find((e) => e.type === "finalSelectionChecked")!;
    expect(describeStoredEvent(check)).toBe("final selection check (slow update after epoch 2): 1.000 — new best");
    expect(eventStep(check)).toBe(6);
    expect(eventStep(SAMPLES.find((e) => e.type === "runFailed")!)).toBeNull();
    expect(eventStep(SAMPLES.find((e) => e.type === "epochCompleted")!)).toBeNull();
    expect(describeStoredEvent(SAMPLES.find((e) => e.type === "reviewDecided")!)).toBe(
      "step 2 review: rejected by dana",
    );
  });
});
