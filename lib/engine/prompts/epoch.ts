/**
 * Rewrite, slow update, meta skill and appendix-consolidation prompts.
 */
import { PROTECTED_RULE, SIGNATURES, joinSections, section, skillBlock } from "./common";

export function rewriteSystemPrompt(): string {
  return [
    SIGNATURES.rewrite,
    "Produce the whole new skill document. Carry out every selected suggestion; keep guidance that works " +
      "unless a suggestion says otherwise; consolidate rather than lengthen; keep the document consistent and " +
      "concise. Preserve the skill's scope (general, reusable guidance for this kind of task, no narrower) and " +
      "make the document better organised than before. Never include benchmark-specific answers, names or file paths.",
    PROTECTED_RULE.replace("never target, edit or reproduce text inside them", "copy them unchanged"),
    "",
    "Answer with one JSON object and nothing else:",
    '{"reasoning": "<why>", "change_summary": ["<one line per change>"], "new_skill": "<the full document>"}',
  ].join("\n");
}

export function rewriteUserPrompt(opts: { skill: string; suggestions: unknown[]; stepBuffer: string }): string {
  return joinSections([
    section("Current Skill", skillBlock(opts.skill)),
    section(
      `Selected Revise Suggestions (${opts.suggestions.length} total)`,
      JSON.stringify(opts.suggestions, null, 2),
    ),
    opts.stepBuffer && section("Previous Steps in This Epoch", opts.stepBuffer),
    section("Request", 'Return the complete rewritten skill in "new_skill".'),
  ]);
}

export function slowUpdateSystemPrompt(): string {
  return [
    SIGNATURES.slowUpdate,
    "You compare how the skill of the previous epoch and the skill of this epoch did on the same tasks. First " +
      'reflect, in "reasoning", on whether the earlier epoch-level guidance helped. Then write the new guidance ' +
      "block, addressed directly to the target model. It replaces the protected epoch-guidance block of the " +
      "skill, so it must stand on its own: keep what worked, revise what did not, and add fixes for new " +
      "regressions and persistent failures. Priorities: (1) prevent regressions, (2) fix persistent " +
      "failures, (3) reinforce successes. Do not repeat what the main body already says. The block is " +
      "read-only to the step-level optimisation (step edits never change it) and has no length limit, so " +
      "write all the guidance the evidence supports.",
    "",
    "Answer with one JSON object and nothing else:",
    '{"reasoning": "<reflection>", "slow_update_content": "<markdown guidance for the target>"}',
  ].join("\n");
}

export function slowUpdateUserPrompt(opts: {
  prevSkill: string;
  currSkill: string;
  existing: string;
  comparison: string;
  nPairs: number;
}): string {
  return joinSections([
    section("Previous Epoch Skill", skillBlock(opts.prevSkill)),
    section("Current Epoch Skill", skillBlock(opts.currSkill)),
    section(
      "Previous Epoch Guidance",
      opts.existing.trim()
        ? `Reflect on whether this guidance helped before you revise it:\n${opts.existing.trim()}`
        : "(none yet: this is the first epoch-level guidance)",
    ),
    section(`Longitudinal Comparison on the same ${opts.nPairs} tasks`, opts.comparison),
  ]);
}

export function metaSkillSystemPrompt(): string {
  return [
    SIGNATURES.metaSkill,
    "This memory is read by the optimizer (the analysts, mergers and rankers), never by the target model. " +
      "From the comparison of two epochs, write compact notes on which kinds of edits helped or hurt here, the " +
      "right level of abstraction for rules, the repair patterns to prioritise, and the regression risks to " +
      "watch. Revise the previous memory in the light of the new evidence rather than appending to it. The " +
      "memory holds no instructions for the target model and does not restate the skill document.",
    "",
    "Answer with one JSON object and nothing else:",
    '{"reasoning": "<what the evidence shows>", "meta_skill_content": "<markdown notes for the optimizer>"}',
  ].join("\n");
}

export function metaSkillUserPrompt(opts: {
  prevSkill: string;
  currSkill: string;
  prevMeta: string;
  comparison: string;
  nPairs: number;
}): string {
  return joinSections([
    section("Previous Epoch Last-Step Skill", skillBlock(opts.prevSkill)),
    section("Current Epoch Last-Step Skill", skillBlock(opts.currSkill)),
    section(
      "Previous Optimizer Memory",
      opts.prevMeta.trim()
        ? `Reflect on whether these notes held up before you revise them:\n${opts.prevMeta.trim()}`
        : "(none yet: this is the first memory)",
    ),
    section(`Longitudinal Comparison on the same ${opts.nPairs} tasks`, opts.comparison),
  ]);
}

/** The optimizer-side memory as injected into analyst, merge, ranking and learning-rate calls. */
export function metaBlock(content: string): string {
  if (!content.trim()) return "";
  return section(
    "Optimizer Meta Skill",
    "Memory carried over from earlier epoch transitions of this run. Prefer it when the evidence in front of " +
      "you is ambiguous; do not follow it against clear contrary evidence.\n\n" +
      content.trim(),
  );
}

export function consolidateSystemPrompt(): string {
  return [
    SIGNATURES.consolidate,
    "Remove duplicates, merge reminders that say nearly the same thing, and simplify wording. Do not invent " +
      "new rules.",
    "",
    'Answer with one JSON object and nothing else: {"appendix_notes": ["<reminder>"]}',
  ].join("\n");
}

export function consolidateUserPrompt(notes: string[]): string {
  return joinSections([
    section(`Current Execution Notes (${notes.length} total)`, notes.map((n, i) => `${i + 1}. ${n}`).join("\n")),
    section("Request", 'Return a shorter list as {"appendix_notes": [...]}.'),
  ]);
}
