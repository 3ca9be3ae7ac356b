/**
 * The SearchQA target prompts (our own wording). The system prompt ends with the skill section; the
 * user message carries the retrieved passages, cut to a budget at document boundaries, and the question.
 */
import { withSkillSection } from "../common/skill-prompt";

/** The instructions every SearchQA rollout starts from (before the skill section). */
export const SEARCHQA_SYSTEM_BASE = [
  "You are an expert at answering trivia-style questions from retrieved web passages.",
  'The passages under "## Context" were found by a search engine; each starts with [DOC]. Some are noisy or off-topic.',
  "Think briefly about which passage settles the question, then give your final answer inside <answer></answer>.",
  "The final answer should be a short phrase, not an explanation.",
].join("\n");

/** Context budget in characters. */
export const CONTEXT_CHAR_LIMIT = 6000;
/** Appended when the first document alone exceeds the budget and had to be cut. */
export const TRUNCATION_MARKER = "\n[... context truncated ...]";

/** The system prompt: the base instructions, then `## Skill` + the skill when it is not blank. */
export function buildSearchQaSystemPrompt(skill: string): string {
  return withSkillSection(SEARCHQA_SYSTEM_BASE, skill);
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
