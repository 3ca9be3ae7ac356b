/**
 * Where the skill sits in a chat target's system prompt, shared by the envs that build the prompts and
 * the backends that read them back (the simulated target, the exec agents' SKILL.md). As in the original,
 * the skill follows the role line: `## Skill`, the skill text, then a closing `## End of Skill` line
 * (skills carry headings of their own, so only a closing line tells where they end), then the benchmark's
 * instructions. A benchmark whose original puts the skill last passes no instructions after it.
 */

/** The line that opens the skill section. */
export const SKILL_HEADING = "## Skill";
/** The line that closes it. */
const SKILL_END = "## End of Skill";

/**
 * `before`, the skill section, then `after` (each separated by a blank line). A blank skill leaves the
 * section out: `before` and `after` alone.
 */
export function withSkillSection(before: string, skill: string, after = ""): string {
  const body = skill.trimEnd();
  const parts = [before.trimEnd()];
  if (body.trim() !== "") parts.push(`${SKILL_HEADING}\n${body}\n${SKILL_END}`);
  if (after.trim() !== "") parts.push(after.trimEnd());
  return parts.filter((p) => p !== "").join("\n\n");
}

/**
 * The reverse of `withSkillSection`: the skill is everything between the first `## Skill` line and the
 * last `## End of Skill` line after it (so a skill may contain either line itself); the instructions are
 * the text around it. Without an opening line there is no skill; without a closing line the skill runs
 * to the end.
 */
export function splitSkillSection(system: string): { instructions: string; skill: string } {
  const lines = system.split("\n");
  const start = lines.findIndex((l) => l.trimEnd() === SKILL_HEADING);
  if (start === -1) return { instructions: system.trimEnd(), skill: "" };
  let end = lines.length;
  for (let i = lines.length - 1; i > start; i--)
    if (lines[i]!.trimEnd() === SKILL_END) {
      end = i;
      break;
    }
  const before = lines.slice(0, start).join("\n").trimEnd();
  const after = lines
    .slice(end + 1)
    .join("\n")
    .trim();
  return {
    instructions: [before, after].filter((p) => p !== "").join("\n\n"),
    skill: lines.slice(start + 1, end).join("\n"),
  };
}
