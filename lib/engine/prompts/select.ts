/**
 * Ranking (which items to keep when the pool exceeds the budget) and autonomous learning-rate prompts.
 */
import type { UpdateMode } from "../types";
import { MODE_PAYLOAD, SIGNATURES, joinSections, section, skillBlock } from "./common";

export function rankingSystemPrompt(mode: UpdateMode): string {
  const extra =
    mode === "rewrite_from_suggestions"
      ? " Also weigh rewrite utility: how much a suggestion will help a rewriter produce a better document."
      : "";
  return [
    SIGNATURES.ranking,
    "More updates were proposed than the step's budget allows. Rank them by, in order: systematic impact " +
      "(how many failures it would fix: an update that fixes half of the failures beats one that fixes a " +
      "single edge case), complementarity (it fills a gap in the current skill rather than duplicating what " +
      "the skill, or a higher-ranked item, already says), generality (it is phrased as a general principle, " +
      "not tied to particular questions or entities) and actionability (clear, concrete guidance the target " +
      "can follow)." +
      extra,
    "",
    "Answer with one JSON object and nothing else:",
    '{"reasoning": "<short justification>", "selected_indices": [<0-based indices, most important first>]}',
  ].join("\n");
}

export function rankingUserPrompt(opts: {
  mode: UpdateMode;
  skill: string;
  poolLines: string[];
  budget: number;
  metaBlock: string;
}): string {
  const { plural } = MODE_PAYLOAD[opts.mode];
  const label = plural[0]!.toUpperCase() + plural.slice(1);
  return joinSections([
    opts.metaBlock,
    section("Current Skill", skillBlock(opts.skill)),
    section(`${label} Pool (${opts.poolLines.length} ${plural}, budget=${opts.budget})`, opts.poolLines.join("\n")),
    section(
      "Request",
      `Select the ${opts.budget} most important ${plural} and return their 0-based indices in priority order.`,
    ),
  ]);
}

export function lrSystemPrompt(): string {
  return [
    SIGNATURES.lrAutonomous,
    "Decide only the number of items to apply now, from the evidence shown: how broken the current skill is, " +
      "how consistent and well-supported the proposals are, and how risky it is to change many things at " +
      "once. There is no default size, and you do not rank or edit the items.",
    "",
    "Answer with one JSON object and nothing else:",
    '{"learning_rate": <integer >= 0>, "reasoning": "<why>", "confidence": "low" | "medium" | "high", ' +
      '"risk_notes": ["<risk>"]}',
  ].join("\n");
}

export function lrUserPrompt(opts: {
  mode: UpdateMode;
  skill: string;
  evidence: { rolloutN: number; rolloutHard: number; rolloutSoft: number };
  poolLines: string[];
  stepBuffer: string;
  metaBlock: string;
}): string {
  const { plural } = MODE_PAYLOAD[opts.mode];
  const e = opts.evidence;
  return joinSections([
    opts.metaBlock,
    section("Current Skill", skillBlock(opts.skill)),
    section(
      "Current Step Evidence",
      [
        `rollout_n=${e.rolloutN}`,
        `rollout_hard=${e.rolloutHard.toFixed(6)}`,
        `rollout_soft=${e.rolloutSoft.toFixed(6)}`,
        `proposed_update_items=${opts.poolLines.length}`,
        `update_item_type=${plural}`,
      ].join("\n"),
    ),
    section("Proposed Update Items", opts.poolLines.join("\n")),
    section("Request", `Decide how many of these ${plural} to apply in this step.`),
    opts.stepBuffer && section("Previous Steps in This Epoch", opts.stepBuffer),
  ]);
}
