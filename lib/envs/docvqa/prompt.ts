/**
 * The DocVQA target prompts (our own wording). The system prompt ends with the skill section; the user
 * message is one text part (the question under `## Question`, then how to answer) and one image part.
 */
import { withSkillSection } from "../common/skill-prompt";

/** The instructions every DocVQA rollout starts from (before the skill section). */
export const DOCVQA_SYSTEM_BASE = [
  "You answer questions about the image of a single document page: a scanned letter, form, invoice, receipt, table or report.",
  "Everything you need is visible on the page. Find the region that holds the answer and read it carefully.",
  "Answers are compared character by character with what is printed, so give only the answer itself, as short as it can be.",
  "Think briefly if you need to, then put the final answer inside <answer></answer>.",
].join("\n");

/** The system prompt: the base instructions, then `## Skill` + the skill when it is not blank. */
export function buildDocVqaSystemPrompt(skill: string): string {
  return withSkillSection(DOCVQA_SYSTEM_BASE, skill);
}

/** The text part of the first user message. */
export function buildDocVqaUserText(question: string): string {
  return [
    "## Document",
    "The page is attached as an image.",
    "",
    "## Question",
    question,
    "",
    "## Reply",
    "Return the answer inside <answer></answer> tags.",
  ].join("\n");
}

/** The follow-up of an extra turn (`env.max_turns > 1`) when the previous reply gave no tagged answer. */
export function buildLookAgainPrompt(previousAnswer: string): string {
  return [
    `Your previous reply was: ${previousAnswer || "(empty)"}`,
    "Look at the page again, find the exact text that answers the question, and reply with it inside <answer></answer>.",
  ].join("\n");
}
