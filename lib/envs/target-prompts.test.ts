import { describe, expect, it } from "vitest";
import { buildDocVqaSystemPrompt } from "./docvqa/prompt";
import { buildLiveMathSystemPrompt } from "./livemath/prompt";
import { buildOfficeQaSystemPrompt } from "./officeqa/prompt";
import { buildSearchQaSystemPrompt } from "./searchqa/prompt";
import { buildSpreadsheetSystemPrompt } from "./spreadsheetbench/prompt";

// The information the original's target prompts give, checked in ours (our wording).
describe("target prompts carry the original's information", () => {
  it("livemath: quantifiers, hypotheses, extremal wording and exact equality conditions", () => {
    const p = buildLiveMathSystemPrompt("# Skill");
    expect(p).toMatch(/quantifiers/);
    expect(p).toMatch(/hypotheses/);
    expect(p).toMatch(/extremal wording/);
    expect(p).toMatch(/exact equality conditions/);
    // Step-by-step reasoning, only the label in the tags, an example — and no claims the original does not
    // make (about a published theorem, or that the other options are near-copies).
    expect(p).toMatch(/step by step/);
    expect(p).toMatch(/nothing in them but the label of one choice/);
    expect(p).toContain("<answer>B</answer>");
    expect(p).not.toMatch(/published theorem|Exactly one option|close variations|Reason briefly/);
  });

  it("officeqa (tools): narrow to the most relevant file, short targeted searches then small reads, operands before arithmetic", () => {
    const p = buildOfficeQaSystemPrompt("# Skill", true);
    expect(p).toMatch(/narrow down to the most relevant file before reading long passages/);
    expect(p).toMatch(/short targeted searches, then\s+small reads/);
    expect(p).toMatch(/compute only after you have extracted\s+the exact operands/);
  });

  it.each([false, true])("spreadsheetbench (pandas %s): no print, no input(), no hard-coded paths", (pandas) => {
    const p = buildSpreadsheetSystemPrompt("# Skill", pandas);
    expect(p).toMatch(/Do not print anything/);
    expect(p).toMatch(/do not call input\(\)/);
    expect(p).toMatch(/do not hard-code file paths/);
  });
});

describe("searchqa and docvqa target prompts carry the original's information", () => {
  it("searchqa: context passages and a question, concise answer in tags, no repeated question, an example", () => {
    const p = buildSearchQaSystemPrompt("# Skill");
    expect(p).toMatch(/document passages under "## Context"/);
    expect(p).toMatch(/a question under "## Question"/);
    expect(p).toMatch(/answer the question from the information they give/);
    expect(p).toMatch(/Think step by step, then put your final answer inside <answer><\/answer>/);
    expect(p).toMatch(/usually a few words or a brief phrase/);
    expect(p).toMatch(/Do not restate the question/);
    expect(p).toMatch(/no explanation inside the answer tags/);
    expect(p).toMatch(/For example:\n<answer>[^<\n]+<\/answer>/);
  });

  it("docvqa: a page image and a question; exact spans, numbers, dates, names; no invention; best-supported near match", () => {
    const p = buildDocVqaSystemPrompt("# Skill");
    expect(p).toMatch(/image of a document page and one question/);
    expect(p).toMatch(/Base the answer on what is visible in the document/);
    expect(p).toMatch(/Prefer exact spans, numbers, dates and names as they appear on the page/);
    expect(p).toMatch(/Do not make up anything the page does not show/);
    expect(p).toMatch(/several candidates nearly match, choose the one the document supports best/);
    expect(p).toMatch(/answer briefly/);
    expect(p).toMatch(/inside <answer><\/answer>/);
  });
});
