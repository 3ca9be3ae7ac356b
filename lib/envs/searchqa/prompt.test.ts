import { describe, expect, it } from "vitest";
import {
  buildSearchQaSystemPrompt,
  buildSearchQaUserPrompt,
  CONTEXT_CHAR_LIMIT,
  SEARCHQA_INSTRUCTIONS,
  SEARCHQA_ROLE,
  SEARCHQA_SYSTEM_BASE,
  TRUNCATION_MARKER,
  truncateContext,
} from "./prompt";

describe("system prompt", () => {
  it("puts the skill between an exact '## Skill' line and '## End of Skill', right after the role line", () => {
    const system = buildSearchQaSystemPrompt("# My skill\n- rule one\n\n");
    expect(system).toBe(
      `${SEARCHQA_ROLE}\n\n## Skill\n# My skill\n- rule one\n## End of Skill\n\n${SEARCHQA_INSTRUCTIONS}`,
    );
    expect(system.split("\n").filter((l) => l === "## Skill")).toHaveLength(1);
  });
  it("has no skill section for a blank skill", () => {
    expect(buildSearchQaSystemPrompt("  \n")).toBe(SEARCHQA_SYSTEM_BASE);
  });
});

describe("truncateContext", () => {
  const doc = (n: number, size: number) => `[DOC] ${String(n).repeat(size - 7)}\n`;

  it("leaves a short context alone", () => {
    expect(truncateContext("[DOC] a\n[DOC] b")).toBe("[DOC] a\n[DOC] b");
  });
  it("keeps whole leading documents while they fit", () => {
    const context = doc(1, 2500) + doc(2, 2500) + doc(3, 2500);
    const out = truncateContext(context);
    expect(out).toBe((doc(1, 2500) + doc(2, 2500)).trimEnd());
    expect(out).not.toContain(TRUNCATION_MARKER);
  });
  it("cuts hard with a marker when the first document alone is too long", () => {
    const context = doc(1, 7000) + doc(2, 100);
    const out = truncateContext(context);
    expect(out).toBe(context.slice(0, CONTEXT_CHAR_LIMIT) + TRUNCATION_MARKER);
  });
  it("treats text before the first [DOC] as a leading document", () => {
    const context = "intro\n" + doc(1, 5000) + doc(2, 3000);
    expect(truncateContext(context)).toBe(("intro\n" + doc(1, 5000)).trimEnd());
  });
});

describe("user prompt", () => {
  it("has the context then the question", () => {
    expect(buildSearchQaUserPrompt("Who?", "[DOC] x")).toBe("## Context\n[DOC] x\n\n## Question\nWho?");
  });
});
