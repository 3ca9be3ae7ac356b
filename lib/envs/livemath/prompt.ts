/**
 * The LiveMath target prompts (our own wording). The skill section follows the role line; the
 * user message lists the question and the (already shuffled) choices, plus the theorem and proof sketch
 * when `use_theorem` / `use_sketch` are on.
 */
import { withSkillSection } from "../common/skill-prompt";
import type { Choice } from "./normalise";

/** The role line; the skill section follows it, as in the original. */
export const LIVEMATH_ROLE =
  "You are a careful research mathematician answering a multiple-choice question about a published theorem.";

/** The instructions after the skill section. */
const LIVEMATH_INSTRUCTIONS = [
  "Exactly one option is correct; the others are close variations of it.",
  "Pay attention to quantifiers, hypotheses, extremal wording (at most, at least, the largest, the only) and exact equality conditions, and to how strong each option's claim is, before you decide.",
  "Reason briefly, then output only the label of the chosen option inside <answer></answer>, for example <answer>C</answer>.",
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
