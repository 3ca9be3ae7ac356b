/**
 * How the simulated model relates skill text to the hidden guidance rules: whether a rule is present,
 * and how an optimizer would write it into a skill (an edit, or a whole new document).
 */
import { rulePresent, type SimRule } from "../../contracts/sim";
import { protectedRegions } from "../../engine/protected";

const cache = new Map<string, RegExp>();
function re(source: string): RegExp {
  let r = cache.get(source);
  if (!r) {
    r = new RegExp(source, "i");
    cache.set(source, r);
  }
  return r;
}

export { rulePresent };

/** Lines outside the protected blocks (edits may not target text inside them). */
function editableLines(skill: string): string[] {
  const regions = protectedRegions(skill);
  const out: string[] = [];
  let pos = 0;
  for (const line of skill.split("\n")) {
    const inside = regions.some(([a, b]) => pos >= a && pos < b);
    if (!inside) out.push(line);
    pos += line.length + 1;
  }
  return out;
}

export type SimEdit = { op: string; target?: string; content: string; rationale: string };

/** The edit an optimizer proposes to add `rule` to `skill`. */
export function editForRule(rule: SimRule, skill: string): SimEdit {
  const bullet = `- ${rule.guidance}`;
  const rationale = `Failures show the pattern "${rule.title}"; the skill needs an explicit rule for it.`;
  const lines = editableLines(skill);
  const clash = lines.find((l) => l.trim() && rule.conflicts.some((c) => re(c).test(l)));
  if (clash)
    return {
      op: "replace",
      target: clash,
      content: bullet,
      rationale: `${rationale} An existing line contradicts it.`,
    };
  const heading = rule.section && lines.find((l) => l.trim() === rule.section);
  if (heading) return { op: "insert_after", target: heading, content: bullet, rationale };
  return { op: "append", content: rule.section ? `${rule.section}\n${bullet}` : bullet, rationale };
}

/** The skill with `rule` written in (contradicting lines replaced), as a rewriting optimizer would. */
export function applyRule(rule: SimRule, skill: string): string {
  if (rulePresent(rule, skill)) return skill;
  const e = editForRule(rule, skill);
  if (e.op === "replace") return skill.replace(e.target!, e.content);
  if (e.op === "insert_after") {
    const at = skill.indexOf(e.target!);
    const nl = skill.indexOf("\n", at + e.target!.length);
    return nl < 0 ? `${skill}\n${e.content}\n` : `${skill.slice(0, nl + 1)}${e.content}\n${skill.slice(nl + 1)}`;
  }
  const regions = protectedRegions(skill);
  if (regions.length > 0) {
    const first = Math.min(...regions.map(([a]) => a));
    return `${skill.slice(0, first).trimEnd()}\n\n${e.content}\n\n${skill.slice(first)}`;
  }
  return `${skill.trimEnd()}\n\n${e.content}\n`;
}

/** The rule whose guidance text appears in `text` (used to read suggestions and candidate skills). */
export function ruleMentioned(rules: readonly SimRule[], text: string): SimRule | undefined {
  return rules.find((r) => text.includes(r.guidance));
}
