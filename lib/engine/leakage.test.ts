import { describe, expect, it } from "vitest";
import { findDuplicates, findMemorisedLines, isDistinctiveGold, itemTextOf, itemTexts, normaliseText } from "./leakage";

const q = (id: string, split: "train" | "val" | "test", question: string, answers: string[] = []) => ({
  id,
  split,
  question,
  golds: answers,
});

describe("duplicates across splits", () => {
  it("finds an exact duplicate (case and punctuation aside) and a near duplicate, with ids and splits", () => {
    const items = [
      q("t1", "train", "What is the capital of the province of Westmarch?"),
      q("v1", "val", "what is the CAPITAL of the province of westmarch"),
      q("t2", "train", "Which river flows through the garrison town of Haldane in the north of the province?"),
      q("s1", "test", "Which river flows through the garrison town of Haldane in the north of the old province?"),
      q("s2", "test", "How many boardings did the transit system record in October 2024?"),
    ];
    const pairs = findDuplicates(items);
    expect(pairs).toEqual([
      { a: { id: "t1", split: "train" }, b: { id: "v1", split: "val" }, similarity: 1, exact: true },
      expect.objectContaining({ a: { id: "t2", split: "train" }, b: { id: "s1", split: "test" }, exact: false }),
    ]);
    // 13 distinct shingles vs 14, 12 shared: Jaccard 12/15, exactly the default threshold.
    expect(pairs[1]!.similarity).toBeCloseTo(12 / 15, 12);
  });

  it("items in the same split are not leakage; a lower threshold finds looser pairs", () => {
    const items = [
      q("a", "train", "alpha beta gamma delta epsilon"),
      q("b", "train", "alpha beta gamma delta epsilon"),
      q("c", "val", "alpha beta gamma delta zeta"),
    ];
    expect(findDuplicates(items).map((p) => [p.a.id, p.b.id])).toEqual([]);
    expect(findDuplicates(items, { threshold: 0.5 }).map((p) => [p.a.id, p.b.id])).toEqual([
      ["a", "c"],
      ["b", "c"],
    ]);
  });
});

describe("memorised evaluation data in a skill", () => {
  const items = [
    q("v1", "val", "What is the capital of the province of Westmarch?", ["Haldane"]),
    q("s1", "test", "How many boardings did the transit system record in October 2024, in thousands?", ["489"]),
    q("s2", "test", "Is the invoice paid?", ["yes"]),
    q("t1", "train", "Who founded the city of Orlemouth?", ["Asa Verrin"]),
  ];

  it("flags a line holding a selection or test gold answer, with the line number and the item", () => {
    const skill =
      "# Skill\n\n## Answer format\n- Give the shortest span.\n- Westmarch questions: the answer is Haldane.\n- Ridership figures are in thousands (489 in October).";
    expect(findMemorisedLines(skill, items)).toEqual([
      {
        line: 5,
        text: "- Westmarch questions: the answer is Haldane.",
        itemId: "v1",
        split: "val",
        kind: "gold",
        match: "Haldane",
      },
      {
        line: 6,
        text: "- Ridership figures are in thousands (489 in October).",
        itemId: "s1",
        split: "test",
        kind: "gold",
        match: "489",
      },
    ]);
  });

  it("flags a line quoting a run of an item's question words", () => {
    const skill = "When asked how many boardings did the transit system record in a month, read the table.";
    expect(findMemorisedLines(skill, items)).toEqual([
      expect.objectContaining({
        line: 1,
        itemId: "s1",
        kind: "question",
        match: "how many boardings did the transit system record",
      }),
    ]);
  });

  it("ignores train golds, yes/no answers, golds inside longer words and general guidance", () => {
    const skill =
      "- Answer yes or no when asked.\n- Asa Verrin questions are about founders.\n- Numbers like 14890 need units.\n- Copy the exact span.";
    expect(findMemorisedLines(skill, items)).toEqual([]);
  });

  it("distinctive golds", () => {
    expect(["489", "haldane", "1 284 50"].map(isDistinctiveGold)).toEqual([true, true, true]);
    expect(["yes", "no", "42", "b", "abc"].map(isDistinctiveGold)).toEqual([false, false, false, false, false]);
  });
});

describe("item text", () => {
  it("reads the benchmarks' fields: answers lists, ground truth, LiveMath's correct choice text; ALFWorld games have none", () => {
    expect(itemTextOf({ id: "o", question: "Q?", ground_truth: "489", answers: ["489"] }, "val")).toEqual({
      id: "o",
      split: "val",
      question: "Q?",
      golds: ["489"],
    });
    expect(
      itemTextOf(
        {
          id: "m",
          question: "Which?",
          correct_choice: "B",
          choices: [
            { label: "A", text: "one" },
            { label: "B", text: "F is constant" },
          ],
        },
        "test",
      )!.golds,
    ).toEqual(["F is constant"]);
    expect(itemTextOf({ id: "s", instruction: "Fill column F", answer_position: "F2:F9" }, "train")!.question).toBe(
      "Fill column F",
    );
    expect(itemTextOf({ id: "g", task_type: "pick_and_place_simple", seed: 1 }, "val")).toBeNull();
    expect(
      itemTexts({ train: [{ id: "a", question: "x" }], val: [{ id: "g", seed: 2 }], test: [] }).map((t) => t.id),
    ).toEqual(["a"]);
    expect(normaliseText("  Ｆｕｌｌ-width, PUNCT!  ")).toBe("full width punct");
  });
});
