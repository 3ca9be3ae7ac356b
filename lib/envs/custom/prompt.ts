/**
 * The custom benchmark's target prompts (our own wording). The system prompt ends with the skill
 * section; the user message has an optional `## Context` and the `## Question` (last, so the simulated
 * target can recognise the item).
 */
import { withSkillSection } from "../common/skill-prompt";

/** Context budget in characters; longer contexts are cut with a marker. */
export const CONTEXT_CHAR_LIMIT = 12000;
export const TRUNCATION_MARKER = "\n[... context truncated ...]";

/** The instructions every custom rollout starts from (before the skill section). */
export const CUSTOM_SYSTEM_BASE = [
  "You answer questions from a user-provided evaluation set.",
  'When a "## Context" section is given, it is the material the question is about; rely on it.',
  "Reason briefly if it helps, then put your final answer inside <answer></answer>.",
  "The text inside the tags is compared with the expected answer, so put only the answer there.",
].join("\n");

export function buildCustomSystemPrompt(skill: string): string {
  return withSkillSection(CUSTOM_SYSTEM_BASE, skill);
}

/** `## Context` (when there is one, cut to the budget) then `## Question`. */
export function buildCustomUserPrompt(question: string, context: string | undefined): string {
  const q = `## Question\n${question.trim()}`;
  const c = (context ?? "").trim();
  if (c === "") return q;
  const cut = c.length > CONTEXT_CHAR_LIMIT ? c.slice(0, CONTEXT_CHAR_LIMIT) + TRUNCATION_MARKER : c;
  return `## Context\n${cut}\n\n${q}`;
}
