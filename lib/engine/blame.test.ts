import { describe, expect, it } from "vitest";
import { blameChain, describeOrigin, renderBlameMarkdown, type BlameChange } from "./blame";

const edit = (index: number, content: string, op = "replace", status = `applied_${op}`) => ({
  index,
  op,
  content,
  rationale: `why ${index}`,
  sourceType: "failure",
  supportCount: 3,
  status,
});
const stepOf = (s: number, text: string, edits: BlameChange["edits"], action = "accept_new_best"): BlameChange => ({
  text,
  origin: { kind: "step", step: s, epoch: 1, action, edit: null },
  edits,
});

describe("skill blame", () => {
  const chain: BlameChange[] = [
    { text: "# Skill\n- a\n- b\n", origin: { kind: "seed" } },
    stepOf(1, "# Skill\n- a\n- B first\n", [edit(1, "- B first")]),
    stepOf(2, "# Skill\n- a\n- B first\n- c\n", [
      edit(1, "- never applied", "replace", "skipped_no_match"),
      edit(2, "- c", "insert_after"),
    ]),
    stepOf(3, "# Skill\n- a\n- B second\n- c\n", [edit(1, "- B second")]),
    {
      text: "# Skill\n- a\n- B second\n- c\n\n## Slow update\n- keep spans short\n",
      origin: { kind: "epoch_boundary", epoch: 1 },
    },
  ];

  it("every line is attributed; unchanged seed lines stay the seed's; a line edited twice points to the later edit", () => {
    const lines = blameChain(chain);
    expect(
      lines.map((l) => [
        l.line,
        l.text,
        l.origin.kind === "step" ? `${l.origin.step}:${l.origin.edit?.index ?? "-"}` : l.origin.kind,
      ]),
    ).toEqual([
      [1, "# Skill", "seed"],
      [2, "- a", "seed"],
      [3, "- B second", "3:1"],
      [4, "- c", "2:2"],
      [5, "", "epoch_boundary"],
      [6, "## Slow update", "epoch_boundary"],
      [7, "- keep spans short", "epoch_boundary"],
    ]);
  });

  it("a line no applied edit holds is the step's own rewrite; skipped edits never claim a line", () => {
    const lines = blameChain([
      { text: "x\n", origin: { kind: "seed" } },
      stepOf(1, "x\ny\n", [edit(1, "y", "replace", "skipped_no_match")]),
    ]);
    expect(lines[1]!.origin).toEqual({ kind: "step", step: 1, epoch: 1, action: "accept_new_best", edit: null });
    expect(describeOrigin(lines[1]!.origin)).toBe("step 1 (epoch 1, accept_new_best), rewritten by the step");
  });

  it("renders BLAME.md with one row per line, pipes escaped", () => {
    const md = renderBlameMarkdown(
      blameChain([
        { text: "a | b\n", origin: { kind: "seed" } },
        stepOf(2, "a | b\nc\n", [edit(1, "c", "insert_after")]),
      ]),
    );
    expect(md).toContain("| 1 | a \\| b | seed skill |");
    expect(md).toContain(
      "| 2 | c | step 2 (epoch 1, accept_new_best), edit 1 insert_after from failure, support 3: why 1 |",
    );
  });

  it("a chain must start with the seed", () => {
    expect(() => blameChain([])).toThrow(/starts with the seed/);
  });
});

describe("blank lines", () => {
  it("a blank line added with an edit's text belongs to that edit", () => {
    const lines = blameChain([
      { text: "# S\n- a\n", origin: { kind: "seed" } },
      stepOf(1, "# S\n- a\n\n## New\n- b\n", [edit(1, "## New\n- b", "insert_after")]),
    ]);
    expect(lines.slice(2).map((l) => (l.origin.kind === "step" ? l.origin.edit?.index : null))).toEqual([1, 1, 1]);
  });
});
