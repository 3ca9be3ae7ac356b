/**
 * The LiveMath target prompts (our own wording). The skill section follows the role line; the
 * user message lists the question and the (already shuffled) choices, plus the theorem and proof sketch
 * when `use_theorem` / `use_sketch` are on.
 */
import { withSkillSection } from "../common/skill-prompt";
import type { Choice } from "./normalise";

/** The role line; the skill section follows it, as in the original. */
export const LIVEMATH_ROLE = "You are an expert at mathematical reasoning, answering multiple-choice questions.";

/**
 * The instructions after the skill section: what the task looks like, what to weigh, and the answer
 * format — the information of the original's target prompt, no more (it claims nothing about how the
 * options were made or where the question comes from).
 */
const LIVEMATH_INSTRUCTIONS = [
  "## Task Format",
  "You get one mathematics question with its answer choices.",
  "Before you choose, weigh the quantifiers, the hypotheses, extremal wording and exact equality conditions with care.",
  "",
  "## Answer Format",
  "Work through the problem step by step, then give your final answer inside <answer></answer> tags, with nothing in them but the label of one choice (such as A or C).",
  "",
  "Example:",
  "<answer>B</answer>",
].join("\n");

/** The system prompt of a blank skill: the role line, then the instructions. */
export const LIVEMATH_SYSTEM_BASE = withSkillSection(LIVEMATH_ROLE, "", LIVEMATH_INSTRUCTIONS);

/** The system prompt: the role line, the skill section (when the skill is not blank), the instructions. */
export function buildLiveMathSystemPrompt(skill: string): string {
  return withSkillSection(LIVEMATH_ROLE, skill, LIVEMATH_INSTRUCTIONS);
}

/** What the user message shows. */
export interface LiveMathPromptParts {
  question: string;
  choices: readonly Choice[];
  /** Shown under `## Theorem` when given. */
  theorem?: string;
  /** Shown under `## Proof Sketch` when given. */
  sketch?: string;
}

/** `## Question`, `## Choices` (`A. text` lines), then the optional theorem and sketch sections. */
export function buildLiveMathUserPrompt(parts: LiveMathPromptParts): string {
  const sections = [
    `## Question\n${parts.question}`,
    `## Choices\n${parts.choices.map((c) => `${c.label}. ${c.text}`).join("\n")}`,
  ];
  if (parts.theorem) sections.push(`## Theorem\n${parts.theorem}`);
  if (parts.sketch) sections.push(`## Proof Sketch\n${parts.sketch}`);
  return sections.join("\n\n");
}
