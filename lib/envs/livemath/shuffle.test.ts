import { describe, expect, it } from "vitest";
import type { Item } from "../../engine/types";
import { buildRunConfig } from "../test-helpers";
import { createLiveMathEnv } from "./index";
import { normaliseLiveMathRow } from "./normalise";
import { choiceShuffleSeed, shuffleItemChoices } from "./shuffle";

const item: Item = {
  id: "202511:1",
  question: "Q?",
  choices: ["one", "two", "three", "four", "five"].map((text, i) => ({ label: "ABCDE"[i] as string, text })),
  correct_choice: { label: "B", text: "two" },
};

describe("choice shuffling", () => {
  it("matches Python: random.Random(int(sha256('7:202511:1')[:16], 16)).shuffle(list('ABCDE'))", () => {
    expect(choiceShuffleSeed(7, "202511:1")).toBe(BigInt("0xcdec4d40a6711d81"));
    const out = shuffleItemChoices(item, 7);
    // Python order of the original labels: ['C', 'D', 'E', 'B', 'A']
    expect(out.choices).toEqual([
      { label: "A", text: "three" },
      { label: "B", text: "four" },
      { label: "C", text: "five" },
      { label: "D", text: "two" },
      { label: "E", text: "one" },
    ]);
    expect(out.correct_choice).toEqual({ label: "D", text: "two" });
    expect(item.correct_choice).toEqual({ label: "B", text: "two" });
  });

  it("is deterministic per seed and usually differs across seeds", () => {
    expect(shuffleItemChoices(item, 11)).toEqual(shuffleItemChoices(item, 11));
    const orders = new Set(Array.from({ length: 20 }, (_, s) => JSON.stringify(shuffleItemChoices(item, s).choices)));
    expect(orders.size).toBeGreaterThan(10);
    for (let s = 0; s < 20; s++) {
      const out = shuffleItemChoices(item, s);
      const correct = out.correct_choice as { label: string; text: string };
      expect((out.choices as Array<{ label: string; text: string }>).find((c) => c.label === correct.label)?.text).toBe(
        "two",
      );
    }
  });

  it("prepareBatch shuffles only when shuffle_choices is on", () => {
    const on = createLiveMathEnv(buildRunConfig({ name: "livemath" }));
    const off = createLiveMathEnv(buildRunConfig({ name: "livemath", shuffle_choices: false }));
    expect(on.prepareBatch?.([item], 7)[0]?.choices).not.toEqual(item.choices);
    expect(off.prepareBatch?.([item], 7)[0]).toBe(item);
  });
});

describe("normaliseLiveMathRow", () => {
  const at = { file: "data/qa_202512_final.json", index: 4 };

  it("reads mcq.* with string choices and a bare correct label, deriving the id", () => {
    const out = normaliseLiveMathRow(
      { mcq: { question: "Which?", choices: ["x", "y"], correct_choice: "b" }, theorem_type: "analysis", theorem: "T" },
      at,
    );
    expect(out).toMatchObject({
      id: "202512:5",
      month: "202512",
      no: 5,
      question: "Which?",
      choices: [
        { label: "A", text: "x" },
        { label: "B", text: "y" },
      ],
      correct_choice: { label: "B", text: "y" },
      theorem: "T",
      sketch: "",
      theorem_type: ["analysis"],
    });
    expect(out.mcq).toBeUndefined();
  });

  it("reads a {label: text} map (sorted) and appends a correct choice given with its text", () => {
    const out = normaliseLiveMathRow(
      { month: 202601, no: 3, question: "Q", choices: { B: "b", A: "a" }, correct_choice: { label: "C", text: "c" } },
      at,
    );
    expect(out.choices).toEqual([
      { label: "A", text: "a" },
      { label: "B", text: "b" },
      { label: "C", text: "c" },
    ]);
    expect(out.id).toBe("202601:3");
  });

  it("names the file, index and field of a broken row", () => {
    expect(() => normaliseLiveMathRow({ question: "Q", choices: ["a"] }, at)).toThrow(
      "data/qa_202512_final.json: item 4: missing field 'correct_choice' (a label)",
    );
    expect(() => normaliseLiveMathRow({ choices: ["a"], correct_choice: "A" }, at)).toThrow(
      "item 4: missing field 'question'",
    );
  });
});
