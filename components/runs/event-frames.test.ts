import { describe, expect, it } from "vitest";
import type { StreamFrame } from "@/lib/contracts/run-events";
import { frameStep, frameTone, mergeFrames, summarizeFrame } from "./event-frames";

const frame = (seq: number, type = "stepStarted", payload: Record<string, unknown> = {}): StreamFrame => ({
  seq,
  type,
  payload: { type, ...payload },
  createdAt: "2026-03-01T12:00:00Z",
});

describe("mergeFrames", () => {
  it("appends only frames newer than the cached tail (replays are dropped)", () => {
    const a = mergeFrames(undefined, [frame(1), frame(2)]);
    const b = mergeFrames(a, [frame(2), frame(3), frame(1)]);
    expect(b.map((f) => f.seq)).toEqual([1, 2, 3]);
  });
  it("returns the same array when nothing is new (no re-render)", () => {
    const a = mergeFrames(undefined, [frame(1)]);
    expect(mergeFrames(a, [frame(1)])).toBe(a);
  });
  it("drops the events a resumed attempt superseded, keeping the cursor monotonic", () => {
    const a = mergeFrames(undefined, [
      frame(1, "stepCommitted", { step: 1 }),
      frame(2, "stepStarted", { step: 2 }),
      frame(3, "rolloutCompleted", { step: 2 }),
      frame(4, "workerLost"),
    ]);
    const b = mergeFrames(a, [
      frame(5, "runClaimed"),
      frame(6, "runResumed", { fromStep: 2, superseded: [2, 3] }),
      frame(7, "stepStarted", { step: 2 }),
    ]);
    expect(b.map((f) => f.seq)).toEqual([1, 4, 5, 6, 7]);
    expect(b.filter((f) => f.type === "stepStarted")).toHaveLength(1);
  });
  it("keeps only the most recent frames", () => {
    const many = Array.from({ length: 10 }, (_, i) => frame(i + 1));
    expect(mergeFrames(undefined, many, 4).map((f) => f.seq)).toEqual([7, 8, 9, 10]);
  });
});

describe("frame summaries", () => {
  it("reads the step and describes gate decisions", () => {
    const f = frame(7, "gateDecided", {
      step: 3,
      action: "reject",
      candidateScore: 0.5,
      currentScoreBefore: 0.6,
      bestScore: 0.6,
    });
    expect(frameStep(f)).toBe(3);
    expect(summarizeFrame(f)).toBe("reject: candidate 0.500 vs current 0.600; best 0.600");
  });
  it("shows the paired scores and the coverage when items went unanswered, and a skip's reason", () => {
    const partial = frame(7, "gateDecided", {
      step: 3,
      action: "accept",
      candidateScore: 0.9,
      currentScoreBefore: 0.6,
      bestScore: 0.9,
      nItems: 10,
      nPaired: 8,
      nErrors: 1,
      nTimeouts: 0,
      nTruncated: 1,
      candidatePairedScore: 0.875,
      currentPairedScore: 0.625,
      reason: null,
    });
    expect(summarizeFrame(partial)).toBe(
      "accept: candidate 0.875 vs current 0.625; best 0.900; scored on 8 of 10 items (1 error, 1 truncated)",
    );
    const skip = frame(8, "gateDecided", {
      step: 4,
      action: "skip_errors",
      candidateScore: 0.9,
      currentScoreBefore: 0.6,
      bestScore: 0.6,
      nItems: 10,
      nPaired: 5,
      nErrors: 5,
      nTimeouts: 0,
      nTruncated: 0,
      candidatePairedScore: 1,
      currentPairedScore: 0.6,
      reason: "too many",
    });
    expect(summarizeFrame(skip)).toBe(
      "skip_errors: candidate 1.000 vs current 0.600; best 0.600; scored on 5 of 10 items (5 errors) — too many",
    );
    expect(
      summarizeFrame(
        frame(9, "rolloutCompleted", { step: 4, hard: 0.5, soft: 0.5, n: 10, nErrors: 0, nTimeouts: 1, nTruncated: 2 }),
      ),
    ).toBe("train rollout hard 0.500 soft 0.500 on 10 items (1 timeout, 2 truncated not answered)");
  });
  it("counts applied edits from the apply report", () => {
    const f = frame(8, "candidateBuilt", {
      step: 3,
      candidateHash: "abcdef1234567",
      applyReport: [{ status: "applied" }, { status: "skipped" }],
    });
    expect(summarizeFrame(f)).toBe("candidate abcdef12, 1/2 edits applied");
  });
  it("describes lifecycle events of a recovered run", () => {
    expect(
      summarizeFrame(
        frame(4, "workerLost", { workerId: "w-1", detectedBy: "job failed: job stalled more than allowable limit" }),
      ),
    ).toBe("worker w-1 lost (job failed: job stalled more than allowable limit)");
    expect(summarizeFrame(frame(6, "runResumed", { fromStep: 3, superseded: [4, 5] }))).toBe(
      "resumed from step 3; 2 events of the interrupted attempt replaced",
    );
    expect(
      summarizeFrame(frame(7, "runQueued", { reason: "worker shut down; the run continues on the next worker" })),
    ).toBe("queued: worker shut down; the run continues on the next worker");
  });
  it("describes human review at the gate: the wait, who decided what with their note, and a timeout's fallback", () => {
    expect(
      summarizeFrame(
        frame(10, "reviewRequested", {
          step: 3,
          mode: "ask",
          automatic: "reject",
          deadlineAt: "2026-12-02T04:05:00.000Z",
        }),
      ),
    ).toBe(
      "step 3 awaits human review (the gate would reject); if no one answers by 2026-12-02 04:05 UTC the fallback decision applies",
    );
    expect(
      summarizeFrame(
        frame(10, "reviewRequested", { step: 4, mode: "required", automatic: "accept", deadlineAt: null }),
      ),
    ).toBe("step 4 awaits human review (the gate would accept); the run waits for a reviewer");
    expect(
      summarizeFrame(
        frame(11, "reviewDecided", { step: 3, decision: "accept", note: "units fixed, fine", author: "dana" }),
      ),
    ).toBe("step 3 review: accepted by dana — “units fixed, fine”");
    expect(summarizeFrame(frame(11, "reviewDecided", { step: 3, decision: "edit", note: "", author: "" }))).toBe(
      "step 3 review: edited, then accepted by a reviewer",
    );
    expect(summarizeFrame(frame(11, "reviewDecided", { step: 3, decision: "expired", note: "", author: "" }))).toBe(
      "step 3 review timed out: the fallback decision applies",
    );
    const gate = (review: Record<string, unknown>) =>
      summarizeFrame(
        frame(12, "gateDecided", {
          step: 3,
          action: review.action,
          candidateScore: 0.5,
          currentScoreBefore: 0.6,
          bestScore: 0.6,
          review: { note: "", author: "", ...review },
        }),
      );
    expect(
      gate({
        decision: "reject",
        source: "reviewer",
        automatic: "accept",
        action: "reject",
        author: "dana",
        note: "too long",
      }),
    ).toBe("reject: candidate 0.500 vs current 0.600; best 0.600; rejected by dana (gate said accept) — “too long”");
    expect(gate({ decision: "gate", source: "timeout", automatic: "reject", action: "reject" })).toBe(
      "reject: candidate 0.500 vs current 0.600; best 0.600; review timed out → fallback to the gate's decision (gate said reject)",
    );
    expect(frameTone("reviewRequested")).toBe("warn");
  });
  it("falls back to scalar fields for unknown types", () => {
    expect(summarizeFrame(frame(9, "somethingNew", { a: 1, b: "x", c: { nested: true } }))).toBe("a=1, b=x");
  });
});
