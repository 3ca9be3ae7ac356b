import { describe, expect, it } from "vitest";
import { buildLiveMathSystemPrompt } from "./livemath/prompt";
import { buildOfficeQaSystemPrompt } from "./officeqa/prompt";
import { buildSpreadsheetSystemPrompt } from "./spreadsheetbench/prompt";

// The information the original's target prompts give, checked in ours (our wording).
describe("target prompts carry the original's information", () => {
  it("livemath: quantifiers, hypotheses, extremal wording and exact equality conditions", () => {
    const p = buildLiveMathSystemPrompt("# Skill");
    expect(p).toMatch(/quantifiers/);
    expect(p).toMatch(/hypotheses/);
    expect(p).toMatch(/extremal wording/);
    expect(p).toMatch(/exact equality conditions/);
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
