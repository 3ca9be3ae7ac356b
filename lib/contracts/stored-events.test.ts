import { describe, expect, it } from "vitest";
import type { EngineEvent } from "./events";
import {
  leanPayload,
  parseStoredEvent,
  parseStoredEventsOf,
  StoredEventError,
  storedPayloadJson,
} from "./stored-events";

const row = (seq: number, payload: { type: string; [k: string]: unknown }) => ({
  seq,
  type: payload.type,
  payload: JSON.stringify(payload),
});

const baseline: EngineEvent = {
  type: "baselineScored",
  hard: 0.4,
  soft: 0.5,
  score: 0.4,
  skillHash: "abc",
  nItems: 2,
  nErrors: 0,
  nTimeouts: 0,
  nTruncated: 0,
  results: [
    { id: "q1", hard: 1, soft: 1, status: "ok" },
    { id: "q2", hard: 0, soft: 0, status: "ok" },
  ],
};

const commit: EngineEvent = {
  type: "stepCommitted",
  step: 3,
  epoch: 1,
  action: "accept",
  record: { step: 3, epoch: 1, step_in_epoch: 3 },
  currentSkill: "# skill",
  currentHash: "c",
  bestSkill: "# skill",
  bestHash: "c",
  currentScore: 0.5,
  bestScore: 0.6,
  bestStep: 3,
  tokens: { rollout: { calls: 4, prompt_tokens: 40, completion_tokens: 4 } },
};

describe("stored run events: lean when written, parsed with their type's schema when read", () => {
  it("an engine event is stored without its bulky parts and reads back typed", () => {
    const stored = leanPayload(baseline);
    expect(stored).not.toHaveProperty("results");
    expect(stored).toMatchObject({ type: "baselineScored", nResults: 2, score: 0.4 });
    const back = parseStoredEvent(row(7, stored));
    expect(back).toEqual(stored);
    const c = parseStoredEventsOf("stepCommitted", [row(8, leanPayload(commit))])[0]!;
    expect(c).not.toHaveProperty("bestSkill");
    expect(c.tokens.rollout!.calls).toBe(4);
  });

  it("lifecycle events parse with their own schema", () => {
    expect(parseStoredEvent(row(1, { type: "runClaimed", workerId: "w1", resumed: false }))).toEqual({
      type: "runClaimed",
      workerId: "w1",
      resumed: false,
    });
  });

  it("a stored event that does not parse is an error naming the event and the field, never a zero", () => {
    const { tokens: _t, ...noTokens } = leanPayload(commit) as Record<string, unknown> & { type: string };
    expect(() => parseStoredEvent(row(12, noTokens))).toThrow(
      new StoredEventError(12, "stepCommitted", "tokens", "Invalid input: expected record, received undefined"),
    );
    const badScore = { ...leanPayload(commit), bestScore: "high" };
    expect(() => parseStoredEvent(row(13, badScore))).toThrow(
      /^stored run event #13 \(stepCommitted\): field bestScore: /,
    );
    expect(() => parseStoredEvent({ seq: 14, type: "stepCommitted", payload: "{" })).toThrow(
      /#14 \(stepCommitted\): payload is not JSON/,
    );
    expect(() => parseStoredEvent(row(15, { type: "somethingNew" }))).toThrow(
      "stored run event #15 (somethingNew): field type: not a known event type",
    );
    expect(() => parseStoredEventsOf("metaSkillUpdated", [row(16, leanPayload(commit))])).toThrow(
      /#16 \(stepCommitted\): field type: expected metaSkillUpdated/,
    );
  });

  it("an event is checked with the same schema when written: one that would not read back is refused", () => {
    expect(JSON.parse(storedPayloadJson(3, leanPayload(commit)))).toEqual(leanPayload(commit));
    const broken = { ...leanPayload(baseline), nItems: 1.5 } as Parameters<typeof storedPayloadJson>[1];
    expect(() => storedPayloadJson(4, broken)).toThrow(/^stored run event #4 \(baselineScored\): field nItems: /);
  });
});
