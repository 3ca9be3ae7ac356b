/**
 * Level merge (per chunk of patches) and final merge (failure group + success group) prompts.
 */
import type { UpdateMode } from "../types";
import { MODE_PAYLOAD, PROTECTED_RULE, SIGNATURES, itemShape, joinSections, section, skillBlock } from "./common";

function mergeOutput(mode: UpdateMode): string {
  const key = MODE_PAYLOAD[mode].key;
  return (
    "Answer with one JSON object and nothing else:\n" +
    `{"reasoning": "<how you merged>", "${key}": [<items>]}\n` +
    `Each item keeps its shape and carries "support_count" (how many input patches back it) and ` +
    `"source_type" ("failure" or "success"):\n${itemShape(mode)}`
  );
}

const LEVEL_FAILURE: Record<UpdateMode, string> = {
  patch:
    "Merge the edits below into one deduplicated set. Where two edits say the same thing, keep one and add " +
    "up their support. Where they conflict, keep the one with the stronger justification or write a synthesis. " +
    "Keep every unique insight, favour edits that recur across patches (they address systematic failures), " +
    "and never let two edits touch the same region of the skill. An edit that only one patch proposes may be " +
    "dropped when it is specific to one task.",
  rewrite_from_suggestions:
    "Merge the revision suggestions below into one deduplicated list: combine suggestions that ask for the " +
    "same change, resolve conflicts by the stronger evidence, keep unique ones. A suggestion that only one " +
    "patch makes may be dropped when it is specific to one task.",
  full_rewrite_minibatch:
    "Each input holds a complete candidate skill. Combine them into one complete merged document (not a list " +
    "of changes) that keeps the fixes the candidates agree on and the best-supported unique fixes, without " +
    "contradictions. Keep the essential task-format instructions (how the target must format its answer or " +
    "actions) and the skill's general, reusable scope. A fix that only one candidate makes may be dropped when " +
    "it is specific to one task.",
};

const LEVEL_SUCCESS: Record<UpdateMode, string> = {
  patch:
    "Merge the edits below conservatively: keep only patterns that generalise and that the skill does not " +
    "already cover; deduplicate and add up support.",
  rewrite_from_suggestions:
    "Merge the revision suggestions below conservatively: keep only general suggestions the skill does not " +
    "already follow; deduplicate.",
  full_rewrite_minibatch:
    "Each input holds a complete candidate skill. Combine them into one complete merged document that keeps " +
    "what all of them preserve, keeps the essential task-format instructions, and adds only well-supported, " +
    "general reinforcements.",
};

export function levelMergeSystemPrompt(kind: "failure" | "success", mode: UpdateMode): string {
  return [
    kind === "failure" ? SIGNATURES.mergeFailure : SIGNATURES.mergeSuccess,
    kind === "failure" ? LEVEL_FAILURE[mode] : LEVEL_SUCCESS[mode],
    "Estimate support_count for each merged item from the inputs.",
    PROTECTED_RULE,
    "",
    mergeOutput(mode),
  ].join("\n");
}

export function levelMergeUserPrompt(opts: {
  skill: string;
  patches: unknown[];
  level: number;
  metaBlock: string;
}): string {
  return joinSections([
    opts.metaBlock,
    section("Current Skill", skillBlock(opts.skill)),
    section(
      `Patches to merge (${opts.patches.length} total, merge level ${opts.level})`,
      JSON.stringify(opts.patches, null, 2),
    ),
  ]);
}

export function finalMergeSystemPrompt(mode: UpdateMode): string {
  return [
    SIGNATURES.mergeFinal,
    "Group 1 comes from failed tasks and has priority; group 2 comes from successful tasks. When items of the " +
      "two groups overlap, keep the group-1 version. Keep group-2 items that cover different ground. Prefer " +
      "items merged at higher levels (they summarise more evidence). Carry support_count and source_type over.",
    PROTECTED_RULE,
    "",
    mergeOutput(mode),
  ].join("\n");
}

export function finalMergeUserPrompt(opts: {
  mode: UpdateMode;
  skill: string;
  failure: Record<string, unknown>;
  success: Record<string, unknown>;
  nFailure: number;
  nSuccess: number;
  metaBlock: string;
}): string {
  const { plural } = MODE_PAYLOAD[opts.mode];
  const neutral = opts.mode === "full_rewrite_minibatch";
  const g1 = neutral ? `from failed trajectories` : `failure-driven, high priority`;
  const g2 = neutral ? `from successful trajectories` : `success-driven, lower priority`;
  return joinSections([
    opts.metaBlock,
    section("Current Skill", skillBlock(opts.skill)),
    section(
      "Two Pre-merged Groups",
      `Group 1 (${g1}): ${opts.nFailure} ${plural}\nGroup 2 (${g2}): ${opts.nSuccess} ${plural}\n\n` +
        JSON.stringify([opts.failure, opts.success], null, 2),
    ),
  ]);
}
