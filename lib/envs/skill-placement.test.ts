import { describe, expect, it } from "vitest";
import { firstStepPrompt, historyStepPrompt, skillSection, ALFWORLD_SYSTEM_PROMPT } from "./alfworld/prompt";
import { buildCustomSystemPrompt, CUSTOM_ROLE } from "./custom/prompt";
import { buildDocVqaSystemPrompt, DOCVQA_ROLE } from "./docvqa/prompt";
import { buildLiveMathSystemPrompt, LIVEMATH_ROLE } from "./livemath/prompt";
import {
  buildOfficeQaSystemPrompt,
  buildSearchSystemPrompt,
  OFFICEQA_PLAIN_SYSTEM_BASE,
  OFFICEQA_TOOLS_ROLE,
} from "./officeqa/prompt";
import { buildSearchQaSystemPrompt, SEARCHQA_ROLE } from "./searchqa/prompt";
import { buildSpreadsheetSystemPrompt, spreadsheetSystemBase } from "./spreadsheetbench/prompt";

// Where the skill goes in the target's prompt, per benchmark, as the original places it
// (microsoft/SkillOpt skillopt/envs/*/rollout.py and prompts/rollout_system.md):
// - searchqa, docvqa, livemathematicianbench, officeqa with local tools: `{skill_section}` right after the
//   role line of the system prompt, before the task/answer format;
// - officeqa without tools: after the whole short instruction paragraph (last);
// - officeqa custom search: after the search protocol, before the closing "return the answer" line;
// - spreadsheetbench (code generation): appended at the end of the system prompt;
// - alfworld: at the start of the user message, before the observation; the system prompt is one line.

const SKILL = "# Skill\n## A heading of the skill's own\n- a rule";
const SECTION = `## Skill\n${SKILL}\n## End of Skill`;

/** The system prompt cut at the skill section: the text before it and after it. */
function around(system: string): { before: string; after: string } {
  const at = system.indexOf(`\n\n${SECTION}`);
  expect(at, "the skill section is in the system prompt").toBeGreaterThan(0);
  return { before: system.slice(0, at), after: system.slice(at + 2 + SECTION.length) };
}

describe("skill placement matches the original", () => {
  it.each([
    ["searchqa", buildSearchQaSystemPrompt(SKILL), SEARCHQA_ROLE, /^## Task Format\n/],
    ["docvqa", buildDocVqaSystemPrompt(SKILL), DOCVQA_ROLE, /^You will get the image of a document page/],
    ["livemath", buildLiveMathSystemPrompt(SKILL), LIVEMATH_ROLE, /^## Task Format\nYou get one mathematics question/],
    ["officeqa (tools)", buildOfficeQaSystemPrompt(SKILL, true), OFFICEQA_TOOLS_ROLE, /^The documents are plain-text/],
    ["custom (as the QA benchmarks)", buildCustomSystemPrompt(SKILL), CUSTOM_ROLE, /^When a "## Context" section/],
  ])("%s: right after the role line, before the task and answer format", (_name, system, role, next) => {
    const { before, after } = around(system);
    expect(before).toBe(role);
    expect(before).not.toContain("\n");
    expect(after.startsWith("\n\n")).toBe(true);
    expect(after.trimStart()).toMatch(next);
    expect(after).toMatch(/<answer>/);
  });

  it("officeqa without tools: after the whole instruction paragraph", () => {
    const { before, after } = around(buildOfficeQaSystemPrompt(SKILL, false));
    expect(before).toBe(OFFICEQA_PLAIN_SYSTEM_BASE);
    expect(after).toBe("");
  });

  it("officeqa custom search: after the search protocol, before the final answer line", () => {
    const { before, after } = around(buildSearchSystemPrompt(SKILL, 3));
    expect(before).toMatch(/<search_queries>/);
    expect(before).toMatch(/up to 3 queries/);
    expect(after.trim()).toMatch(/^When you have the answer, reply with it inside <answer><\/answer>/);
    expect(after.trim().split("\n")).toHaveLength(1);
  });

  it.each([false, true])("spreadsheetbench (pandas %s): last, after the code-writing instructions", (pandas) => {
    const { before, after } = around(buildSpreadsheetSystemPrompt(SKILL, pandas));
    expect(before).toBe(spreadsheetSystemBase(pandas));
    expect(after).toBe("");
  });

  it("alfworld: first in the user message, before the observation; the system prompt has no skill", () => {
    expect(ALFWORLD_SYSTEM_PROMPT).not.toContain("## Skill");
    const first = skillSection(SKILL) + firstStepPrompt("You are in a room.", ["look"]);
    const later =
      skillSection(SKILL) +
      historyStepPrompt({
        task: "put a mug in the sink",
        stepsTaken: 1,
        history: [],
        observation: "x",
        admissible: [],
      });
    for (const user of [first, later]) {
      expect(user.startsWith(`## Skill Knowledge\n`)).toBe(true);
      expect(user.indexOf(SKILL)).toBeLessThan(user.search(/## (Current Observation|Task)\n/));
    }
  });

  it("a blank skill leaves no empty section anywhere", () => {
    for (const p of [
      buildSearchQaSystemPrompt(" \n"),
      buildDocVqaSystemPrompt(""),
      buildLiveMathSystemPrompt(""),
      buildOfficeQaSystemPrompt("", true),
      buildSearchSystemPrompt("", 2),
      buildSpreadsheetSystemPrompt(""),
      buildCustomSystemPrompt(""),
    ]) {
      expect(p).not.toContain("## Skill");
      expect(p).not.toContain("## End of Skill");
      expect(p).not.toMatch(/\n\n\n/);
    }
    expect(skillSection("  ")).toBe("");
  });
});
