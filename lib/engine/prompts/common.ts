/**
 * Shared pieces of the optimizer prompts. Every system prompt opens with a fixed first sentence (its
 * signature) so logs, the simulated optimizer and humans can tell the calls apart; every user message is
 * a sequence of level-2 sections. Skill documents are wrapped in <skill> tags because they contain
 * markdown headings of their own.
 */
import type { UpdateMode } from "../types";

export const SIGNATURES = {
  failureAnalyst: "You are the failure analyst of a skill-training loop.",
  successAnalyst: "You are the success analyst of a skill-training loop.",
  mergeFailure: "You consolidate skill updates that were proposed from failed tasks.",
  mergeSuccess: "You consolidate skill updates that were proposed from successful tasks.",
  mergeFinal: "You combine two pre-merged groups of skill updates into one final set.",
  ranking: "You choose which proposed skill updates to apply in this training step.",
  lrAutonomous: "You decide how many of the proposed skill updates to apply in this training step.",
  rewrite: "You rewrite a skill document so that it carries out a set of revision suggestions.",
  slowUpdate: "You are the epoch-level advisor of a skill-training loop.",
  metaSkill: "You maintain the optimizer's memory of which kinds of skill edits work in this environment.",
  consolidate: "You compact a list of execution reminders attached to a skill.",
} as const;
export type PromptKind = keyof typeof SIGNATURES;

/** A level-2 section of a user message. */
export function section(title: string, body: string): string {
  return `## ${title}\n${body.trimEnd()}\n`;
}

/** A skill document wrapped so its own headings cannot be confused with the prompt's sections. */
export function skillBlock(skill: string): string {
  return `<skill>\n${skill.trimEnd()}\n</skill>`;
}

export function joinSections(parts: Array<string | null | undefined | false>): string {
  return parts.filter((p): p is string => typeof p === "string" && p.trim() !== "").join("\n");
}

/** The key under which each update mode carries its items, and how the prompts name them. */
export const MODE_PAYLOAD: Record<UpdateMode, { key: string; singular: string; plural: string }> = {
  patch: { key: "edits", singular: "edit", plural: "edits" },
  rewrite_from_suggestions: { key: "revise_suggestions", singular: "suggestion", plural: "suggestions" },
  full_rewrite_minibatch: { key: "skill_candidates", singular: "skill candidate", plural: "skill candidates" },
};

export function payloadKey(mode: UpdateMode): string {
  return MODE_PAYLOAD[mode].key;
}

/** The protected-block reminder every prompt that can change the skill carries. */
export const PROTECTED_RULE =
  "The blocks between <!-- SLOW_UPDATE_START --> and <!-- SLOW_UPDATE_END -->, and between " +
  "<!-- APPENDIX_START --> and <!-- APPENDIX_END -->, are maintained by the training loop itself: never " +
  "target, edit or reproduce text inside them.";

/** JSON schema text for one update item, per mode, shown in analyst and merge prompts. */
export function itemShape(mode: UpdateMode): string {
  switch (mode) {
    case "patch":
      return [
        '{"op": "append", "content": "<markdown to add at the end of the skill body>"}',
        '{"op": "insert_after", "target": "<exact line copied from the skill>", "content": "<markdown>"}',
        '{"op": "replace", "target": "<exact text copied from the skill>", "content": "<replacement>"}',
        '{"op": "delete", "target": "<exact text copied from the skill>"}',
      ].join("\n");
    case "rewrite_from_suggestions":
      return (
        '{"type": "add_rule" | "remove_rule" | "merge_rules" | "reorganize" | "compress" | "clarify", ' +
        '"title": "<short name>", "motivation": "<evidence from the trajectories>", ' +
        '"instruction": "<what the rewriter must change>", "priority_hint": "high" | "medium" | "low"}'
      );
    case "full_rewrite_minibatch":
      return (
        '{"title": "<short name>", "change_summary": ["<one line per change>"], ' +
        '"new_skill": "<the complete replacement skill document>"}'
      );
  }
}
