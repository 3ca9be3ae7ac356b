import { describe, expect, it } from "vitest";
import type { StoredRunEvent, StoredRunEventOf } from "@/lib/contracts/stored-events";
import { parseStreamFrame, streamFrameData, type EventFrame } from "@/lib/contracts/stored-events-stream";
import { frameStep, frameTone, mergeFrames, summarizeFrame } from "./event-frames";

/** A frame as the browser gets it: the stored row sent by the SSE tail, parsed with the stored schema. */
const wire = (seq: number, type: string, payload: string): EventFrame => {
  const f = parseStreamFrame(streamFrameData({ seq, type, payload, createdAt: new Date("2026-03-01T12:00:00Z") }));
  if (!f) throw new Error("not a frame");
  return f;
};
const frame = (seq: number, e: StoredRunEvent): EventFrame => wire(seq, e.type, JSON.stringify(e));

const started = (step: number): StoredRunEvent => ({ type: "stepStarted", step, epoch: 1, stepInEpoch: step });
const lost: StoredRunEvent = { type: "workerLost", workerId: "w-1", lastHeartbeatAt: null, detectedBy: "stalled" };
const claimed: StoredRunEvent = { type: "runClaimed", workerId: "w-2", resumed: true };
const rollout = (step: number): StoredRunEvent => ({
  type: "rolloutCompleted",
  step,
  hard: 0.5,
  soft: 0.5,
  n: 10,
  nErrors: 0,
  nTimeouts: 1,
  nTruncated: 2,
  nResults: 10,
});
const gate = (o: Partial<StoredRunEventOf<"gateDecided">> = {}): StoredRunEvent => ({
  type: "gateDecided",
  step: 3,
  action: "reject",
  candidateScore: 0.5,
  currentScoreBefore: 0.6,
  currentScore: 0.6,
  bestScore: 0.6,
  bestStep: 2,
  nItems: 10,
  nPaired: 10,
  nErrors: 0,
  nTimeouts: 0,
  nTruncated: 0,
  candidatePairedScore: 0.5,
  currentPairedScore: 0.6,
  reason: null,
  ...o,
});

describe("mergeFrames", () => {
  it("appends only frames newer than the cached tail (replays are dropped)", () => {
    const a = mergeFrames(undefined, [frame(1, started(1)), frame(2, started(2))]);
    const b = mergeFrames(a, [frame(2, started(2)), frame(3, started(3)), frame(1, started(1))]);
    expect(b.map((f) => f.seq)).toEqual([1, 2, 3]);
  });
  it("returns the same array when nothing is new (no re-render)", () => {
    const a = mergeFrames(undefined, [frame(1, started(1))]);
    expect(mergeFrames(a, [frame(1, started(1))])).toBe(a);
  });
  it("drops the events a resumed attempt superseded (read from the typed runResumed event)", () => {
    const a = mergeFrames(undefined, [
      frame(1, started(1)),
      frame(2, started(2)),
      frame(3, rollout(2)),
      frame(4, lost),
    ]);
    const b = mergeFrames(a, [
      frame(5, claimed),
      frame(6, { type: "runResumed", fromStep: 2, superseded: [2, 3] }),
      frame(7, started(2)),
    ]);
    expect(b.map((f) => f.seq)).toEqual([1, 4, 5, 6, 7]);
    expect(b.filter((f) => f.type === "stepStarted")).toHaveLength(2);
  });
  it("keeps only the most recent frames", () => {
    const many = Array.from({ length: 10 }, (_, i) => frame(i + 1, started(i + 1)));
    expect(mergeFrames(undefined, many, 4).map((f) => f.seq)).toEqual([7, 8, 9, 10]);
  });
});

describe("frame summaries (the sentence the CLI prints too)", () => {
  it("reads the step and describes gate decisions", () => {
    const f = frame(7, gate());
    expect(frameStep(f)).toBe(3);
    expect(summarizeFrame(f)).toBe("gate: reject (candidate 0.500 vs current 0.600, best 0.600)");
    expect(summarizeFrame(frame(9, rollout(4)))).toBe(
      "rollout hard 0.500 soft 0.500 on 10 items (1 timeout, 2 truncated not answered)",
    );
  });
  it("shows the paired scores and the coverage when items went unanswered, and a skip's reason", () => {
    const partial = gate({
      action: "accept",
      candidateScore: 0.9,
      bestScore: 0.9,
      nPaired: 8,
      nErrors: 1,
      nTruncated: 1,
      candidatePairedScore: 0.875,
      currentPairedScore: 0.625,
    });
    expect(summarizeFrame(frame(7, partial))).toBe(
      "gate: accept (candidate 0.875 vs current 0.625, best 0.900; scored on 8 of 10 items (1 error, 1 truncated))",
    );
    const skip = gate({
      step: 4,
      action: "skip_errors",
      nPaired: 5,
      nErrors: 5,
      candidatePairedScore: 1,
      reason: "too many",
    });
    expect(summarizeFrame(frame(8, skip))).toBe(
      "gate: skip_errors (candidate 1.000 vs current 0.600, best 0.600; scored on 5 of 10 items (5 errors) — too many)",
    );
  });
  it("counts applied edits from the apply report", () => {
    const row = { index: 0, op: "append", target: "", content_preview: "" };
    const f = frame(8, {
      type: "candidateBuilt",
      step: 3,
      candidateHash: "abcdef1234567",
      applyReport: [
        { ...row, status: "applied" },
        { ...row, status: "skipped" },
      ],
    });
    expect(summarizeFrame(f)).toBe("candidate abcdef12, 1/2 edits applied");
  });
  it("describes lifecycle events of a recovered run", () => {
    expect(summarizeFrame(frame(4, { ...lost, detectedBy: "job failed: job stalled more than allowable limit" }))).toBe(
      "worker w-1 lost (job failed: job stalled more than allowable limit)",
    );
    expect(summarizeFrame(frame(6, { type: "runResumed", fromStep: 3, superseded: [4, 5] }))).toBe(
      "resumed from step 3; 2 events of the interrupted attempt replaced",
    );
    const reason = "worker shut down; the run continues on the next worker";
    expect(summarizeFrame(frame(7, { type: "runQueued", reason }))).toBe(`queued: ${reason}`);
  });
  it("describes human review at the gate: the wait, who decided what with their note, and a timeout's fallback", () => {
    const asked = { type: "reviewRequested", step: 3, mode: "ask", automatic: "reject" } as const;
    expect(summarizeFrame(frame(10, { ...asked, deadlineAt: "2026-12-02T04:05:00.000Z" }))).toBe(
      "step 3 awaits human review (the gate would reject); if no one answers by 2026-12-02 04:05 UTC the fallback decision applies",
    );
    expect(
      summarizeFrame(frame(10, { ...asked, step: 4, mode: "required", automatic: "accept", deadlineAt: null })),
    ).toBe("step 4 awaits human review (the gate would accept); the run waits for a reviewer");
    const decided = { type: "reviewDecided", step: 3, note: "", author: "" } as const;
    expect(
      summarizeFrame(frame(11, { ...decided, decision: "accept", note: "units fixed, fine", author: "dana" })),
    ).toBe("step 3 review: accepted by dana — “units fixed, fine”");
    expect(summarizeFrame(frame(11, { ...decided, decision: "edit" }))).toBe(
      "step 3 review: edited, then accepted by a reviewer",
    );
    expect(summarizeFrame(frame(11, { ...decided, decision: "expired" }))).toBe(
      "step 3 review timed out: the fallback decision applies",
    );
    const review = { note: "", author: "", action: "reject" };
    expect(
      summarizeFrame(
        frame(
          12,
          gate({
            review: {
              ...review,
              decision: "reject",
              source: "reviewer",
              automatic: "accept",
              author: "dana",
              note: "too long",
            },
          }),
        ),
      ),
    ).toBe(
      "gate: reject (candidate 0.500 vs current 0.600, best 0.600); rejected by dana (gate said accept) — “too long”",
    );
    expect(
      summarizeFrame(
        frame(12, gate({ review: { ...review, decision: "gate", source: "timeout", automatic: "reject" } })),
      ),
    ).toBe(
      "gate: reject (candidate 0.500 vs current 0.600, best 0.600); review timed out → fallback to the gate's decision (gate said reject)",
    );
    expect(frameTone(frame(10, { ...asked, deadlineAt: null }))).toBe("warn");
  });
});

describe("frames that do not parse with their stored schema", () => {
  it("a malformed payload is one line naming the type and the field, never a zero or a crash", () => {
    const f = wire(7, "gateDecided", JSON.stringify({ ...gate(), step: "3" }));
    expect(f.event).toBeNull();
    expect(summarizeFrame(f)).toMatch(/^unreadable gateDecided event: field step: .*expected number/);
    expect(frameStep(f)).toBeNull();
    expect(frameTone(f)).toBe("error");
    // Kept in the log in order, so the merge still advances past it.
    expect(mergeFrames([frame(6, started(1))], [f]).map((x) => x.seq)).toEqual([6, 7]);
  });
  it("an unknown type and a payload that is not JSON say so", () => {
    expect(summarizeFrame(wire(9, "somethingNew", JSON.stringify({ type: "somethingNew", a: 1 })))).toBe(
      "unreadable somethingNew event: field type: not a known event type",
    );
    expect(summarizeFrame(wire(9, "runClaimed", "{"))).toMatch(/^unreadable runClaimed event: payload is not JSON/);
  });
  it("a frame without an envelope is not a frame", () => {
    expect(parseStreamFrame("not json")).toBeNull();
    expect(parseStreamFrame(JSON.stringify({ seq: 0, type: "runClaimed", payload: "{}", createdAt: "" }))).toBeNull();
  });
});
