/**
 * The DocVQA target prompts (our own wording, the original's information). As in the original, the skill
 * section follows the role line and the rules come after it; the user message is one text part (the
 * question under `## Question`, then how to answer) and one image part.
 */
import { withSkillSection } from "../common/skill-prompt";

/** The role line; the skill section follows it. */
export const DOCVQA_ROLE = "You are an expert at answering questions about images of documents.";

/** What the target gets and the rules it answers by, after the skill section. */
export const DOCVQA_INSTRUCTIONS = [
  "You will get the image of a document page and one question about that document.",
  "Look carefully at what the page shows and answer briefly.",
  "",
  "Rules:",
  "- Base the answer on what is visible in the document.",
  "- Prefer exact spans, numbers, dates and names as they appear on the page.",
  "- Do not make up anything the page does not show.",
  "- When several candidates nearly match, choose the one the document supports best.",
  "",
  "Put the final answer inside <answer></answer>.",
].join("\n");

/** The system prompt of a blank skill: the role line, then the instructions. */
export const DOCVQA_SYSTEM_BASE = withSkillSection(DOCVQA_ROLE, "", DOCVQA_INSTRUCTIONS);

/** The system prompt: the role line, the skill section (when the skill is not blank), the instructions. */
export function buildDocVqaSystemPrompt(skill: string): string {
  return withSkillSection(DOCVQA_ROLE, skill, DOCVQA_INSTRUCTIONS);
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
