/**
 * The custom benchmark's target prompts (our own wording). The skill section follows the role line; the user message has an optional `## Context` and the `## Question` (last, so the simulated
 * target can recognise the item).
 */
import { withSkillSection } from "../common/skill-prompt";

/** Context budget in characters; longer contexts are cut with a marker. */
export const CONTEXT_CHAR_LIMIT = 12000;
export const TRUNCATION_MARKER = "\n[... context truncated ...]";

/** The role line; the skill section follows it (the original's placement for its QA benchmarks). */
export const CUSTOM_ROLE = "You answer questions from a user-provided evaluation set.";

/** The instructions after the skill section. */
const CUSTOM_INSTRUCTIONS = [
  'When a "## Context" section is given, it is the material the question is about; rely on it.',
  "Reason briefly if it helps, then put your final answer inside <answer></answer>.",
  "The text inside the tags is compared with the expected answer, so put only the answer there.",
].join("\n");

/** The system prompt of a blank skill: the role line, then the instructions. */
export const CUSTOM_SYSTEM_BASE = withSkillSection(CUSTOM_ROLE, "", CUSTOM_INSTRUCTIONS);

/** The system prompt: the role line, the skill section (when the skill is not blank), the instructions. */
export function buildCustomSystemPrompt(skill: string): string {
  return withSkillSection(CUSTOM_ROLE, skill, CUSTOM_INSTRUCTIONS);
}

/** `## Context` (when there is one, cut to the budget) then `## Question`. */
export function buildCustomUserPrompt(question: string, context: string | undefined): string {
  const q = `## Question\n${question.trim()}`;
  const c = (context ?? "").trim();
  if (c === "") return q;
  const cut = c.length > CONTEXT_CHAR_LIMIT ? c.slice(0, CONTEXT_CHAR_LIMIT) + TRUNCATION_MARKER : c;
  return `## Context\n${cut}\n\n${q}`;
}
