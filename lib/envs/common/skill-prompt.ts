/**
 * Skill injection for chat targets. The skill is always the LAST section of the system prompt, under a
 * line that reads exactly `## Skill`: the simulated target reads the skill from there, and a real model
 * sees the benchmark instructions first and the learned guidance right before the conversation.
 */

/** The heading line that introduces the skill section. */
export const SKILL_HEADING = "## Skill";

/** `base` alone for a blank skill, else `base` + a blank line + `## Skill` + the skill (trailing whitespace trimmed). */
export function withSkillSection(base: string, skill: string): string {
  const body = skill.trimEnd();
  if (body.trim() === "") return base.trimEnd();
  return `${base.trimEnd()}\n\n${SKILL_HEADING}\n${body}`;
}
