import { describe, expect, it } from "vitest";
import { slowUpdatePairs } from "./slow-update-pairs";

const sel = (itemId: string, hard: number, currentHard: number | null, status = "ok") => ({
  itemId,
  hard,
  soft: hard,
  status,
  prediction: null,
  reference: null,
  failReason: null,
  currentHard,
  flipped: false,
});
const step = (action: string) =>
  ({ step: { action }, selection: [sel("q1", 1, 0), sel("q2", 0, 1), sel("q3", 0, 0, "error")] }) as never;
const slow = [
  { itemId: "q2", hard: 1, status: "ok" },
  { itemId: "q1", hard: 0, status: "ok" },
  { itemId: "q3", hard: 1, status: "ok" },
];

describe("slowUpdatePairs", () => {
  it("pairs against the step's candidate when its gate adopted it (an unanswered item is unknown)", () => {
    expect(slowUpdatePairs(step("accept"), slow).map((r) => [r.itemId, r.currentHard, r.hard])).toEqual([
      ["q1", 1, 0],
      ["q2", 0, 1],
      ["q3", null, 1],
    ]);
  });
  it("pairs against the skill the step started from when its gate rejected the candidate", () => {
    expect(slowUpdatePairs(step("reject"), slow).map((r) => [r.itemId, r.currentHard])).toEqual([
      ["q1", 0],
      ["q2", 1],
      ["q3", 0],
    ]);
  });
});
