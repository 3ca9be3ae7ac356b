/**
 * Failure and success analyst prompts (one optimizer call per minibatch of trajectories).
 */
import type { AnalystBrief } from "../ports";
import type { UpdateMode } from "../types";
import { MODE_PAYLOAD, PROTECTED_RULE, SIGNATURES, itemShape, joinSections, section, skillBlock } from "./common";

const GOAL_FAILURE: Record<UpdateMode, string> = {
  patch:
    "Propose a small number of general edits to the skill that would have prevented the most common " +
    "systematic failures. Each edit must state a reusable rule, never an answer to one particular task. Fill " +
    "real gaps: do not repeat guidance the skill already gives; if an existing line is wrong or contradicts " +
    "what the evidence shows, replace or delete that line instead of adding a competing one.",
  rewrite_from_suggestions:
    "Write revision suggestions for a later rewriter who will rewrite the whole skill. Each suggestion names " +
    "one change (add, remove, merge, reorganise, compress or clarify guidance), the evidence behind it, and a " +
    "precise instruction. Suggest general rules only, never task-specific answers.",
  full_rewrite_minibatch:
    "Write exactly one complete replacement skill document that fixes the systematic failures. Use the " +
    "trajectories in front of you as the primary evidence, drop stale or conflicting rules, and keep guidance " +
    "that still holds. Keep the skill's scope (general, reusable guidance for this kind of task) and make the " +
    "document better organised than before. It must not contain task-specific answers, ids, file paths or entities.",
};

const GOAL_SUCCESS: Record<UpdateMode, string> = {
  patch:
    "Find behaviour that made these tasks succeed, is general enough to help other tasks, and is not yet " +
    "written in the skill. Prefer strengthening an existing section over adding a new one; propose nothing " +
    "when the skill already covers what worked.",
  rewrite_from_suggestions:
    "Write revision suggestions that would preserve or reinforce what made these tasks succeed, when the " +
    "skill does not already say it. Be conservative and concise.",
  full_rewrite_minibatch:
    "Write exactly one complete replacement skill document that keeps everything that worked and makes the " +
    "successful behaviour explicit where the skill is silent. Do not add task-specific answers, ids, file " +
    "paths or entities.",
};

function outputShape(kind: "failure" | "success", mode: UpdateMode): string {
  const key = MODE_PAYLOAD[mode].key;
  const findings =
    kind === "failure"
      ? '"failure_summary": [{"failure_type": "<category>", "count": <int>, "description": "<pattern>"}]'
      : '"success_patterns": ["<pattern>"]';
  return (
    "Answer with one JSON object and nothing else:\n" +
    `{"batch_size": <number of trajectories you read>, ${findings}, ` +
    `"patch": {"reasoning": "<why these changes>", "${key}": [<items>]}}\n` +
    `Each item of "${key}" has one of these shapes:\n${itemShape(mode)}`
  );
}

/** The benchmark briefing: task types, failure-type definitions (failure analyst) and guidance. */
function briefLines(kind: "failure" | "success", brief: AnalystBrief | undefined): string[] {
  if (!brief) return [];
  const out: string[] = [];
  if (brief.taskTypes.length > 0) {
    out.push("", "Task types of this benchmark:", ...brief.taskTypes.map((t) => `- ${t.name}: ${t.description}`));
  }
  if (kind === "failure" && brief.failureTypes.length > 0) {
    out.push("", "What each failure type means:", ...brief.failureTypes.map((t) => `- ${t.name}: ${t.definition}`));
  }
  const guidance = kind === "failure" ? brief.failureGuidance : brief.successGuidance;
  if (guidance.length > 0) out.push("", "Guidance for this benchmark:", ...guidance.map((g) => `- ${g}`));
  if (out.length > 0) out.push("");
  return out;
}

/** System prompt of an analyst call. */
export function analystSystemPrompt(opts: {
  kind: "failure" | "success";
  mode: UpdateMode;
  taxonomy: string[];
  /** The benchmark's definitions and guidance; without it the analyst sees the category names only. */
  brief?: AnalystBrief;
  skillAware: boolean;
  appendixSource: "both" | "failure_only";
}): string {
  const { kind, mode, brief } = opts;
  const lines = [
    kind === "failure" ? SIGNATURES.failureAnalyst : SIGNATURES.successAnalyst,
    "A target model solved tasks with the skill document below in its instructions. You read the scored " +
      "trajectories of one minibatch and decide how the skill should change.",
    "",
    kind === "failure"
      ? "Read every failed trajectory, group the failures into systematic patterns, and classify each pattern " +
        `into one of these failure types: ${opts.taxonomy.join(", ")}.`
      : "Read every successful trajectory and name the patterns that made them succeed. Only a pattern seen " +
        "in several trajectories is worth reinforcing; one success alone is not evidence.",
    ...briefLines(kind, brief),
    kind === "failure" ? GOAL_FAILURE[mode] : GOAL_SUCCESS[mode],
    "Targets of replace, delete and insert_after must be copied exactly from the skill (they are matched as " +
      "exact, case-sensitive substrings).",
    PROTECTED_RULE,
    "",
    outputShape(kind, mode),
  ];
  if (opts.skillAware && mode !== "full_rewrite_minibatch") {
    if (kind === "failure") lines.push("", SKILL_AWARE_FAILURE);
    else if (opts.appendixSource !== "failure_only") lines.push("", SKILL_AWARE_SUCCESS);
  }
  return lines.join("\n");
}

const SKILL_AWARE_FAILURE = [
  "Before proposing a change, classify each failure pattern:",
  "- SKILL_DEFECT: the skill's rule is missing, wrong or too vague, so an agent that followed the skill " +
    "would still fail. Fix the body with an edit, as usual.",
  "- EXECUTION_LAPSE: the skill already states a correct rule that would have prevented the failure and the " +
    "agent did not follow it (for example it ignored the rule, produced malformed output, copied the feedback " +
    'text verbatim, or emitted a non-action such as "stop"). Do not edit the body for it.',
  "Test: is there a rule in the current skill that, if followed, prevents this failure? Yes means " +
    "EXECUTION_LAPSE, no means SKILL_DEFECT. When unsure, choose EXECUTION_LAPSE: never change or delete a " +
    "valid rule because of a one-off slip.",
  'Each EXECUTION_LAPSE becomes one short reminder in a top-level "appendix_notes" list of strings (next to ' +
    '"patch"). A note re-emphasises the existing rule the agent missed; it must not introduce a new rule. Use ' +
    "[] when there is no lapse. Edits and notes are independent: a batch may give edits only, notes only, " +
    "both, or neither.",
].join("\n");

const SKILL_AWARE_SUCCESS = [
  'You may label each item with "reflection_type" (for the log only; it does not change how the item ' + "applies):",
  "- DISCOVERY: a useful rule the skill does not have yet (usually an append).",
  "- OPTIMIZATION: a better way to carry out a rule the skill already has (usually a replace of that rule).",
  'You may also add a top-level "appendix_notes" list of short strings when a success shows an existing, ' +
    "valid rule worth re-emphasising; a note must not introduce a new rule. Use [] when there is none.",
].join("\n");

/** User message of an analyst call. */
export function analystUserPrompt(opts: {
  kind: "failure" | "success";
  mode: UpdateMode;
  skill: string;
  budget: number;
  stepBuffer: string;
  metaBlock: string;
  trajectories: string;
  total: number;
}): string {
  const { plural, singular } = MODE_PAYLOAD[opts.mode];
  const label = singular[0]!.toUpperCase() + singular.slice(1);
  const budget =
    opts.mode === "full_rewrite_minibatch"
      ? section(
          "Update Format",
          'Return exactly one complete replacement skill in "skill_candidates" (a list with one item). Do not ' +
            "return edits.",
        )
      : section(`${label} Budget`, `Propose at most L=${opts.budget} ${plural}; fewer is better when fewer suffice.`);
  const heading = opts.kind === "failure" ? "Failed Trajectories" : "Successful Trajectories";
  return joinSections([
    section("Current Skill", skillBlock(opts.skill)),
    budget,
    opts.stepBuffer && section("Previous Steps in This Epoch", opts.stepBuffer),
    opts.metaBlock,
    section(`${heading} (${opts.total} total)`, opts.trajectories),
  ]);
}
