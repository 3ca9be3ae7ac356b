/**
 * The SearchQA target prompts (our own wording, the original's information). As in the original, the
 * skill section follows the role line and the task and answer format come after it; the user message
 * carries the retrieved passages, cut to a budget at document boundaries, and the question.
 */
import { withSkillSection } from "../common/skill-prompt";

/** The role line; the skill section follows it. */
export const SEARCHQA_ROLE = "You are an expert at answering questions from document passages.";

/** The task and answer format, after the skill section. */
export const SEARCHQA_INSTRUCTIONS = [
  "## Task Format",
  'You will get document passages under "## Context" (each one starts with [DOC]) and a question under "## Question".',
  "Read the passages carefully and answer the question from the information they give.",
  "",
  "## Answer Format",
  "Think step by step, then put your final answer inside <answer></answer>.",
  "Keep the answer short: usually a few words or a brief phrase.",
  "Do not restate the question, and put no explanation inside the answer tags.",
  "",
  "For example:",
  "<answer>Marie Curie</answer>",
].join("\n");

/** The system prompt of a blank skill: the role line, then the instructions. */
export const SEARCHQA_SYSTEM_BASE = withSkillSection(SEARCHQA_ROLE, "", SEARCHQA_INSTRUCTIONS);

/** Context budget in characters. */
export const CONTEXT_CHAR_LIMIT = 6000;
/** Appended when the first document alone exceeds the budget and had to be cut. */
export const TRUNCATION_MARKER = "\n[... context truncated ...]";

/** The system prompt: the role line, the skill section (when the skill is not blank), the instructions. */
export function buildSearchQaSystemPrompt(skill: string): string {
  return withSkillSection(SEARCHQA_ROLE, skill, SEARCHQA_INSTRUCTIONS);
}

/**
 * Keeps whole leading documents (split at each `[DOC]`) while they fit in `limit` characters; when not
 * even the first one fits, cuts hard at `limit` and appends a truncation marker.
 */
export function truncateContext(context: string, limit = CONTEXT_CHAR_LIMIT): string {
  if (context.length <= limit) return context;
  const starts: number[] = [];
  for (let i = context.indexOf("[DOC]"); i !== -1; i = context.indexOf("[DOC]", i + 1)) starts.push(i);
  if (starts[0] !== 0) starts.unshift(0);
  let end = 0;
  for (let k = 1; k <= starts.length; k++) {
    const next = k < starts.length ? (starts[k] as number) : context.length;
    if (next > limit) break;
    end = next;
  }
  if (end === 0) return context.slice(0, limit) + TRUNCATION_MARKER;
  return context.slice(0, end).trimEnd();
}

/** `## Context` (truncated) then `## Question`. */
export function buildSearchQaUserPrompt(question: string, context: string): string {
  return `## Context\n${truncateContext(context)}\n\n## Question\n${question}`;
}

/** The follow-up message of a refinement turn (`env.max_turns > 1`). */
export function buildRefinementPrompt(previousAnswer: string): string {
  return [
    `Your previous answer was: ${previousAnswer || "(none)"}`,
    "Check it once more against the passages and the exact wording of the question.",
    "Then reply with your final answer inside <answer></answer>.",
  ].join("\n");
}
