import { describe, expect, it } from "vitest";
import { createSimClient } from "../../backends/sim";
import { judgeAnswer } from "./judge";

const sim = createSimClient({
  role: "optimizer",
  knowledge: null,
  seed: 1,
  slipRate: 0,
  unhelpfulRate: 0,
  malformedRate: 0,
  latencyMs: 0,
});
const grade = (answer: string) =>
  judgeAnswer({
    client: sim,
    question: "Capital of France?",
    golds: ["Paris", "the city of Paris"],
    answer,
    rubric: "",
    timeoutSec: 5,
    maxTokens: 200,
  });

describe("judge metric on the simulated optimizer", () => {
  it("grades by normalised comparison with the references: exact, partial (below the pass mark), wrong", async () => {
    const exact = await grade("  paris. ");
    expect(exact.ok && exact.score).toEqual({ hard: 1, soft: 1 });
    const partial = await grade("Paris, France");
    expect(partial.ok && partial.score.hard).toBe(0);
    expect(partial.ok && partial.score.soft).toBe(0.4);
    expect(partial.ok && partial.score.failReason).toMatch(
      /judge score 0\.40: overlaps a reference answer only partly/,
    );
    const wrong = await grade("Lyon");
    expect(wrong.ok && wrong.score).toMatchObject({ hard: 0, soft: 0 });
    const empty = await grade("");
    expect(empty.ok && empty.score.soft).toBe(0);
  });
});
