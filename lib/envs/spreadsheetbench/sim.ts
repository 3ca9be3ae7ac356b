/**
 * The simulated code writer for the built-in sample. It recognises the task by the `## Instruction`
 * section of the first user message and answers with a script from sample/solutions.json (written by
 * sample/generate.py next to the workbooks): the correct script when the skill carries every rule the
 * task needs, otherwise the script with the characteristic mistake of the first missing rule
 * (hard-coded row range, header overwritten, wrong sheet, text left unconverted, stopped at a blank
 * row, formulas instead of values). The env really runs that script; the mistake then shows as the
 * first wrong cell (or the exception line) in the trajectory's failure reason, and the item's
 * annotation `wrong[rule]` is exactly that text (the generator records it by running the script), which
 * is how the simulated analyst recognises the missing rule. On a retry turn it repeats itself: it does
 * not learn from feedback.
 */
import { missingRuleOf, normaliseQuestion, type SimResponder } from "../../contracts/sim";
import solutions from "./sample/solutions.json";

type Solution = { correct: string; wrong: Record<string, string> };
const SOLUTIONS = solutions as Record<string, Solution>;

/** The body of the first `## Instruction` section of a prompt. */
function instructionOf(user: string): string | null {
  const lines = user.split("\n");
  const start = lines.findIndex((l) => l.trim() === "## Instruction");
  if (start < 0) return null;
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("## ")) break;
    body.push(line);
  }
  return body.join("\n").trim();
}

function fenced(code: string, note: string): string {
  return `${note}\n\n\`\`\`python\n${code.trimEnd()}\n\`\`\``;
}

/** Scripts for sample tasks; null (generic behaviour) for anything else. */
export const spreadsheetSimResponder: SimResponder = (call) => {
  const instruction = instructionOf(call.user);
  if (instruction === null) return null;
  const hit = call.knowledge.byQuestion.get(normaliseQuestion(instruction));
  const solution = hit ? SOLUTIONS[hit.id] : undefined;
  if (!hit || !solution) return "I could not work out what this workbook task needs.";
  const missing = missingRuleOf(hit.sim, call.skill, call.knowledge.rules);
  if (missing) return fenced(solution.wrong[missing.id] ?? solution.correct, "Here is the script.");
  const firstNeed = hit.sim.needs[0];
  if (call.slip && firstNeed !== undefined)
    return fenced(solution.wrong[firstNeed] ?? solution.correct, "Here is the script.");
  return fenced(solution.correct, "Here is the script.");
};
