/**
 * Skill injection for chat targets. The format lives in lib/contracts/target-skill.ts because the
 * backends read it back: the simulated target and the exec agents' SKILL.md.
 */
export { SKILL_HEADING, withSkillSection } from "../../contracts/target-skill";
