import { describe, expect, it } from "vitest";
import { buildSimKnowledge, type SimRule } from "../../contracts/sim";
import { simAnalyst } from "./analyst";

const rule = (id: string): SimRule => ({
  id,
  title: `${id} missing`,
  failure_type: "rule_missing",
  guidance: `Always apply ${id} carefully.`,
  detect: [`apply ${id}`],
  conflicts: [],
  harmful: false,
});
const knowledge = buildSimKnowledge(
  [rule("alpha"), rule("beta")],
  [
    { id: "a", question: "qa", sim: { needs: ["alpha"], correct: "right", wrong: { alpha: "wrong-a" } } },
    {
      id: "b",
      question: "qb",
      sim: { needs: ["beta"], correct: "right", wrong: { beta: "put the mug down while still dirty" } },
    },
  ],
);
const prompt = (blocks: string[]) =>
  `## Current Skill\n<skill>\n# Skill\n</skill>\n\nat most L=4 edits\n\n${blocks.join("\n\n")}`;
const edits = (out: string) =>
  (JSON.parse(out) as { patch: { edits: Array<{ content?: string }> } }).patch.edits.map((e) => e.content ?? "");

describe("sim failure analyst", () => {
  it("infers a missing rule from the prediction (QA) or from a distinctive phrase in the failure reason (agents)", () => {
    const out = simAnalyst(
      "failure",
      "patch",
      "",
      prompt([
        "### Trajectory 1 (id=a)\nFailure reason: EM=0\nPrediction: wrong-a",
        "### Trajectory 2 (id=b)\nFailure reason: Episode ended: Put the mug down while STILL dirty.",
      ]),
      { knowledge, unhelpfulRate: 0, seed: 1 },
    );
    const contents = edits(out).join("\n");
    expect(contents).toContain("apply alpha");
    expect(contents).toContain("apply beta");
  });

  it("ignores short wrong answers inside failure reasons (too ambiguous to match as a phrase)", () => {
    const out = simAnalyst(
      "failure",
      "patch",
      "",
      prompt(["### Trajectory 1 (id=a)\nFailure reason: said wrong-a somewhere"]),
      {
        knowledge,
        unhelpfulRate: 0,
        seed: 1,
      },
    );
    expect(edits(out)).toEqual([]);
  });
});
