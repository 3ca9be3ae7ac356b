import { describe, expect, it } from "vitest";
import { findRepeatedLines, normaliseLine } from "./duplicate-lines";

describe("findRepeatedLines", () => {
  it("flags a line repeated verbatim, even under another list marker or case", () => {
    const skill = [
      "# Skill",
      "- Quote the shortest span of the passage that answers the question.",
      "- Prefer the most recent passage when dates conflict.",
      "",
      "1. quote the shortest span of the passage that answers the question",
    ].join("\n");
    expect(findRepeatedLines(skill)).toEqual([
      {
        line: 5,
        of: 2,
        kind: "exact",
        similarity: 1,
        text: "1. quote the shortest span of the passage that answers the question",
      },
    ]);
  });

  it("flags a near repeat above the threshold and not a different rule", () => {
    const skill = [
      "- Always give the answer as a short span copied from the passage text.",
      "- Always give the answer as a short span copied from the passage.",
      "- Check the units of every number before you write the final answer.",
    ].join("\n");
    const found = findRepeatedLines(skill);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ line: 2, of: 1, kind: "near" });
    expect(found[0]!.similarity).toBeGreaterThanOrEqual(0.8);
    expect(found[0]!.similarity).toBeLessThan(1);
  });

  it("ignores headings, short lines and blank lines", () => {
    expect(findRepeatedLines("## Rules\n---\n\n## Rules\n---\nok then\nok then")).toEqual([]);
  });

  it("normalises markers, punctuation and spacing", () => {
    expect(normaliseLine("  *  Use `grep`,   then read!  ")).toBe("use grep then read");
  });
});
