import { describe, expect, it } from "vitest";
import { applyEdits, ensureSkillScaffold, learnedLines, LEARNED_END, LEARNED_START, setLearned } from "./learned";
import type { EditRecord } from "./types";

const edit = (op: string, content: string, anchor = ""): EditRecord => ({
  target: "skill",
  op,
  content,
  anchor,
  rationale: "",
});
const USER = "# My skill\n\nHand-written guidance.\n";

describe("the learned region", () => {
  it("adds bullets inside the markers and leaves everything outside untouched", () => {
    const { doc, applied, unmatched } = applyEdits(USER, [
      edit("add", "Wrap answers in tags."),
      edit("add", "  Cite sources.  "),
    ]);
    expect(doc.startsWith("# My skill\n\nHand-written guidance.\n\n")).toBe(true);
    expect(doc).toContain(`${LEARNED_START}\n## Learned preferences & procedures\n\n`);
    expect(doc.trimEnd().endsWith(`- Wrap answers in tags.\n- Cite sources.\n${LEARNED_END}`)).toBe(true);
    expect(applied).toHaveLength(2);
    expect(unmatched).toEqual([]);
    expect(learnedLines(doc)).toEqual(["Wrap answers in tags.", "Cite sources."]);
  });

  it("skips empty and duplicate adds (whitespace- and case-insensitive) as unmatched", () => {
    const base = setLearned(USER, ["Wrap answers in tags."]);
    const r = applyEdits(base, [edit("add", "wrap   ANSWERS in tags."), edit("add", "   "), edit("add", "New rule.")]);
    expect(r.applied.map((e) => e.content)).toEqual(["New rule."]);
    expect(r.unmatched.map((e) => e.content)).toEqual(["wrap   ANSWERS in tags.", "   "]);
  });

  it("deletes lines containing the anchor, replaces matching lines, and reports edits that change nothing", () => {
    const base = setLearned(USER, ["Use tabs.", "Answer in French.", "Keep it short."]);
    const r = applyEdits(base, [
      edit("delete", "", "tabs"),
      edit("replace", "Answer in English.", "french"),
      edit("delete", "", "absent anchor"),
      edit("replace", "Keep it short.", "keep it"),
      edit("rename", "x"),
    ]);
    expect(learnedLines(r.doc)).toEqual(["Answer in English.", "Keep it short."]);
    expect(r.applied.map((e) => e.op)).toEqual(["delete", "replace"]);
    expect(r.unmatched.map((e) => e.op)).toEqual(["delete", "replace", "rename"]);
    expect(r.doc.startsWith(USER.trimEnd())).toBe(true);
  });

  it("rewrites the block in place of an old one, never duplicating it", () => {
    const once = setLearned(USER, ["A."]);
    const twice = setLearned(once, ["A.", "B."]);
    expect(twice.split(LEARNED_START)).toHaveLength(2);
    expect(learnedLines(twice)).toEqual(["A.", "B."]);
  });

  it("gives an empty skill front matter and a title; a skill with front matter is left as it is", () => {
    const s = ensureSkillScaffold("", "skillopt-sleep-learned", "Learned things.");
    expect(
      s.startsWith(
        "---\nname: skillopt-sleep-learned\ndescription: Learned things.\n---\n\n# skillopt-sleep-learned\n",
      ),
    ).toBe(true);
    expect(ensureSkillScaffold("---\nname: x\n---\nbody", "y", "z")).toBe("---\nname: x\n---\nbody");
  });
});
