/**
 * The simulated target: it recognises the item from the "## Question" section of the prompt, checks the
 * skill section of the system prompt for the guidance the item needs, and answers correctly only when
 * all of it is there — otherwise with the item's characteristic wrong answer. A seeded slip rate adds
 * noise: the same prompt and seed always give the same answer.
 */
import { missingRuleOf, normaliseQuestion, type SimItemAnnotation, type SimKnowledge } from "../../contracts/sim";
import { draw, normaliseAnswer, sectionBody, targetSkill } from "./parse";
import { rulePresent } from "./rules";

export interface SimTargetOptions {
  knowledge: SimKnowledge | null;
  slipRate: number;
  seed: number;
}

/** Picks what the model "means" to answer (a text), before any choice-label mapping. */
function intendedAnswer(
  ann: SimItemAnnotation,
  skill: string,
  k: SimKnowledge,
  noise: number,
  slipRate: number,
): string | null {
  const rules = new Map(k.rules.map((r) => [r.id, r]));
  const missing = ann.needs.find((id) => {
    const rule = rules.get(id);
    return rule ? !rulePresent(rule, skill) : false;
  });
  if (missing !== undefined) return ann.wrong[missing] ?? null;
  if (noise < slipRate) return ann.needs.length > 0 ? (ann.wrong[ann.needs[0]!] ?? null) : null;
  return ann.correct;
}

/** Choice lines "A. text" of a multiple-choice prompt. */
function choices(user: string): Array<{ label: string; text: string }> | null {
  const body = sectionBody(user, "Choices");
  if (body === null) return null;
  return body
    .split("\n")
    .map((l) => /^([A-Z])[.)]\s+(.*)$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ label: m[1]!, text: m[2]! }));
}

export function simTargetAnswer(system: string, user: string, opts: SimTargetOptions): string {
  const question = sectionBody(user, "Question");
  const hit = question && opts.knowledge ? opts.knowledge.byQuestion.get(normaliseQuestion(question)) : undefined;
  // Keyed on the skill and the conversation, not on the benchmark's wording around the skill.
  const skill = targetSkill(system);
  const noise = draw(opts.seed, "target", skill, user);
  const k = opts.knowledge;
  if (k?.respond) {
    const missingRule = hit ? missingRuleOf(hit.sim, skill, k.rules) : null;
    const own = k.respond({
      system,
      user,
      skill,
      item: hit ?? null,
      missingRule,
      slip: !missingRule && noise < opts.slipRate,
      noise,
      knowledge: k,
    });
    if (own !== null) return own;
  }
  const options = choices(user);
  let answer: string | null = null;
  if (hit && opts.knowledge) answer = intendedAnswer(hit.sim, skill, opts.knowledge, noise, opts.slipRate);
  if (options && options.length > 0) {
    const wanted = answer === null ? null : normaliseAnswer(answer);
    const chosen =
      options.find((o) => wanted !== null && normaliseAnswer(o.text) === wanted) ??
      // A slip or an unknown item: some option other than the correct one.
      options.find((o) => !hit || normaliseAnswer(o.text) !== normaliseAnswer(hit.sim.correct)) ??
      options[0]!;
    return `I compared each option against the statement.\n<answer>${chosen.label}</answer>`;
  }
  const text = answer ?? "cannot be determined from the passages";
  return `Based on the passages, the answer follows.\n<answer>${text}</answer>`;
}
