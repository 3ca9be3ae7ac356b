/**
 * Skill injection for chat targets. The format lives with the engine's prompts (lib/engine/prompts/
 * target-skill.ts) because the backends read it back: the simulated target and the exec agents' SKILL.md.
 */
export { SKILL_HEADING, withSkillSection } from "../../engine/prompts/target-skill";
