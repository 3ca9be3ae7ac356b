import { describe, expect, it } from "vitest";
import { parseChoiceLabel, scoreLiveMath } from "./evaluate";

const choices = [
  { label: "A", text: "f has exactly one fixed point." },
  { label: "B", text: "f has at least one fixed point." },
  { label: "C", text: "f is surjective." },
  { label: "D", text: "A solution exists." },
];

describe("parseChoiceLabel", () => {
  it.each([
    ["<answer>B</answer>", "B"],
    ["<answer>B.</answer>", "B"],
    ["<answer> c </answer>", "C"],
    ["<answer>c)</answer>", "C"],
    ["<answer>D:</answer>", "D"],
    ["reasoning…\nB", "B"],
    ["<answer>f has AT LEAST one fixed point.</answer>", "B"],
    ["<answer>a solution exists.</answer>", "D"],
    ["<answer>C. because it is onto</answer>", "C"],
  ])("%j → %s", (reply, label) => {
    expect(parseChoiceLabel(reply, choices)).toBe(label);
  });

  // As the original's normalize_label: bracketed labels are not read, and the text must match exactly
  // (case aside), so our scores compare with the paper's.
  it.each([
    "<answer>Option B</answer>",
    "<answer>F</answer>",
    "<answer></answer>",
    "no idea",
    "<answer>(B)</answer>",
    "<answer>[C]</answer>",
    "<answer> (c) </answer>",
    "<answer>f has  at least one fixed point.</answer>",
  ])("%j → null", (reply) => {
    expect(parseChoiceLabel(reply, choices)).toBeNull();
  });
});

describe("scoreLiveMath", () => {
  const correct = { label: "B", text: "f has at least one fixed point." };

  it("scores hard = soft = 1 for the correct option and reports its text", () => {
    expect(scoreLiveMath("<answer>b</answer>", choices, correct)).toEqual({
      label: "B",
      prediction: "f has at least one fixed point.",
      hard: 1,
      soft: 1,
    });
  });

  it("gives the label-based failure reason and the chosen text", () => {
    expect(scoreLiveMath("<answer>A</answer>", choices, correct)).toEqual({
      label: "A",
      prediction: "f has exactly one fixed point.",
      hard: 0,
      soft: 0,
      failReason: "MCQ=0: predicted 'A' but expected 'B'",
    });
  });

  it("scores a bracketed correct label as wrong, as the original", () => {
    expect(scoreLiveMath("<answer>(B)</answer>", choices, correct)).toMatchObject({ label: null, hard: 0, soft: 0 });
  });

  it("reports the raw answer when no option can be read", () => {
    expect(scoreLiveMath("<answer>maybe</answer>", choices, correct)).toMatchObject({
      label: null,
      prediction: "maybe",
      hard: 0,
      failReason: "MCQ=0: predicted 'maybe' but expected 'B'",
    });
  });
});
