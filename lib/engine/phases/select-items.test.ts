/**
 * The pure parts of the select phase: which ranked indices count, how an item is described to the ranking
 * prompt, and how a learning-rate answer becomes a number. The select phase itself: select.test.ts.
 */
import { describe, expect, it } from "vitest";
import { FLOAT_MARK } from "../json-floats";
import { coerceLearningRate, describeItem, selectedIndices } from "./select";

describe("selectedIndices (spec §7.6)", () => {
  it("keeps only integers in range, in the given order, without duplicates; booleans are 0/1", () => {
    expect(selectedIndices({ selected_indices: [3, "1", 1.5, -1, 9, 3, null, true, 0, 2] }, 5, 4)).toEqual([
      3, 1, 0, 2,
    ]);
    expect(selectedIndices({ selected_indices: [false, 0, true, 1] }, 3, 5)).toEqual([0, 1]);
    expect(selectedIndices({ selected_indices: [`${FLOAT_MARK}1.0`, 2] }, 3, 5)).toEqual([2]);
  });

  it("checks the budget after every element, valid or not (as the original)", () => {
    expect(selectedIndices({ selected_indices: [4, 3, 2, 1] }, 5, 2)).toEqual([4, 3]);
    // Budget 0: a valid first index goes through, an invalid first index stops at once.
    expect(selectedIndices({ selected_indices: [2, 1] }, 3, 0)).toEqual([2]);
    expect(selectedIndices({ selected_indices: [7, 2, 1] }, 3, 0)).toEqual([]);
    expect(selectedIndices({ selected_indices: [7, 8] }, 3, 0)).toEqual([]);
  });

  it("gives nothing without a list", () => {
    expect(selectedIndices(null, 3, 2)).toEqual([]);
    expect(selectedIndices({ selected_indices: "0,1" }, 3, 2)).toEqual([]);
    expect(selectedIndices([0, 1], 3, 2)).toEqual([]);
  });
});

describe("describeItem (spec §7.6)", () => {
  it("patch: op, then repr'd target and content when non-empty, then support when present", () => {
    // Expected strings produced by CPython f-strings with !r.
    expect(describeItem({ op: "replace", target: "it's", content: 'say "hi"\nnext', support_count: 3 }, "patch")).toBe(
      'op=replace  target="it\'s"  content=\'say "hi"\\nnext\'  support=3',
    );
    expect(describeItem({ op: "append", content: "x" }, "patch")).toBe("op=append  content='x'");
    expect(describeItem({ op: "delete", target: "old line", content: "" }, "patch")).toBe(
      "op=delete  target='old line'",
    );
    expect(describeItem({ op: "append", target: "", content: "both ' and \"" }, "patch")).toBe(
      "op=append  content='both \\' and \"'",
    );
  });

  it("rewrite: type, title, instruction, then optional priority and support", () => {
    expect(
      describeItem(
        {
          type: "add_rule",
          title: "Units",
          instruction: "Always give units\tplease",
          priority_hint: "high",
          support_count: 2,
        },
        "rewrite_from_suggestions",
      ),
    ).toBe("type='add_rule'  title='Units'  instruction='Always give units\\tplease'  priority='high'  support=2");
    expect(describeItem({ type: "clarify", title: "T", instruction: "I" }, "rewrite_from_suggestions")).toBe(
      "type='clarify'  title='T'  instruction='I'",
    );
  });

  it("full rewrite: title, change summary list, optional source and support, then the whole new skill", () => {
    const newSkill = "# Skill\n\n- rule \\ one\n" + "x".repeat(3000);
    const line = describeItem(
      {
        title: "Full",
        change_summary: ["tighten rules", "drop Bob's rule"],
        source_type: "failure",
        support_count: 1,
        new_skill: newSkill,
      },
      "full_rewrite_minibatch",
    );
    expect(line).toBe(
      "title='Full'  change_summary=['tighten rules', \"drop Bob's rule\"]  source='failure'  support=1  " +
        `new_skill_preview='# Skill\\n\\n- rule \\\\ one\\n${"x".repeat(3000)}'`,
    );
    expect(describeItem({ title: "T", change_summary: [], new_skill: "# S" }, "full_rewrite_minibatch")).toBe(
      "title='T'  change_summary=[]  new_skill_preview='# S'",
    );
  });
});

describe("coerceLearningRate (spec §8.2)", () => {
  it.each([
    [true, null],
    [false, null],
    [3, 3],
    [0, 0],
    [-4, 0],
    [2.0, 2],
    [2.5, 2],
    [0.75, 0],
    [-2.5, 0],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    ["7", 7],
    ["about 5 edits, maybe 6", 5],
    ["-3", 0],
    ["3.9", 3],
    ["none", null],
    ["", null],
    [null, null],
    [undefined, null],
    [[3], 3],
    [{ v: 2 }, 2],
    [["a1", 3], 1],
    [[], null],
    [{}, null],
    [[true], null],
  ])("%j → %j", (value, expected) => {
    expect(coerceLearningRate(value)).toBe(expected);
  });
});
