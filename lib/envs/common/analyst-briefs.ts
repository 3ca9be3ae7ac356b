/**
 * What each benchmark's analysts are told beyond the failure-type names (the information of the
 * original's per-benchmark analyst prompts, in our own words): a definition per failure type, ALFWorld's
 * task types, and the benchmark's own guidance for the failure and the success analyst.
 */
import type { AnalystBrief } from "../../engine/ports";

type Defs = Record<string, string>;

const RULE_TYPES: Defs = {
  rule_missing: "the skill has no rule that covers this kind of task",
  rule_wrong: "a rule in the skill is misleading or incorrect",
  rule_ignored: "the skill states the right rule but the agent did not apply it",
};
const OTHER = "none of the other types fits";

/** A brief whose failure types follow `taxonomy` (names as the env lists them), each with its definition. */
function brief(
  taxonomy: readonly string[],
  defs: Defs,
  guidance: { failure: string[]; success: string[] },
  taskTypes: AnalystBrief["taskTypes"] = [],
): AnalystBrief {
  const failureTypes = taxonomy.map((name) => {
    const definition = defs[name] ?? RULE_TYPES[name] ?? (name === "other" ? OTHER : undefined);
    if (definition === undefined) throw new Error(`analyst brief: no definition for failure type '${name}'`);
    return { name, definition };
  });
  return { failureTypes, taskTypes, failureGuidance: guidance.failure, successGuidance: guidance.success };
}

export function searchQaBrief(taxonomy: readonly string[]): AnalystBrief {
  return brief(
    taxonomy,
    { answer_format: "the agent found the right information but wrote the answer in a form exact match rejects" },
    {
      failure: [
        "Put each predicted answer next to its gold answer(s) and work out exactly why exact match rejected it (another entity, extra words, a different surface form, only part of the answer).",
        "Fix patterns shared by several questions; never write the answer to a particular question into the skill.",
      ],
      success: [
        "If the successful agents read the context in a smart order or had a good way to decide between similar candidate answers, consider reinforcing that.",
      ],
    },
  );
}

export function liveMathBrief(taxonomy: readonly string[]): AnalystBrief {
  return brief(
    taxonomy,
    {
      quantifier_miss: "the agent overlooked an exact quantifier, its scope, or an existence/uniqueness condition",
      strength_mismatch: "the agent chose a statement weaker or stronger than the one actually proved",
      condition_miss: "the agent ignored a hypothesis, an equality case or a restriction of the domain",
      option_confusion: "the agent mixed up similar options or did not compare them precisely",
    },
    {
      failure: [
        "Prefer edits that make the agent tell the options apart precisely; do not memorise particular theorems.",
        "Never write paper-specific content into the skill.",
      ],
      success: [
        "Prefer patterns about comparing options exactly, about quantifiers and about equality conditions.",
        "Add no facts about particular theorems; propose nothing when the skill already captures what worked.",
      ],
    },
  );
}

export function docVqaBrief(taxonomy: readonly string[]): AnalystBrief {
  return brief(
    taxonomy,
    {
      evidence_miss: "the agent overlooked the visible region or line that holds the answer",
      near_match_confusion: "the agent picked a nearby text span that is not the answer",
      normalization_error: "the answer differed mainly in formatting, spacing, punctuation or a small normalisation",
      reading_error: "the agent misread what the document says",
    },
    {
      failure: [
        "Prefer short edits that improve which evidence the agent selects and how exactly it copies the answer span.",
        "Never hard-code the answer for a particular image or document.",
      ],
      success: [
        "Reinforce reusable habits such as locating the right region, copying the exact span, and giving the shortest exact answer rather than a paraphrase.",
      ],
    },
  );
}

export function officeQaBrief(taxonomy: readonly string[]): AnalystBrief {
  return brief(
    taxonomy,
    {
      retrieval_miss: "the agent searched the wrong file or never narrowed down to the right one",
      evidence_miss: "the agent read documents but missed the span that decides the answer",
      operand_error: "the agent extracted a wrong value or the wrong operands",
      calculation_error: "the agent had the right evidence but computed the result wrongly",
      answer_format: "the agent reached the right result but wrote it in the wrong form",
    },
    {
      failure: [
        "Prefer general rules for retrieval and for grounding answers in evidence over tricks for one task.",
        "Never hard-code file names, years or constants of one question, unless the pattern is a retrieval heuristic that truly carries over.",
      ],
      success: [
        "Reinforce compact habits that paid off: narrowing to the right file early, reading only the relevant span, keeping a clean list of operands, and copying the final answer from checked evidence.",
      ],
    },
  );
}

export function spreadsheetBrief(taxonomy: readonly string[]): AnalystBrief {
  return brief(
    taxonomy,
    {
      data_exploration: "the agent read too little of the spreadsheet's data to understand it",
      code_error: "the agent's code has a bug that has nothing to do with the skill",
    },
    {
      failure: [
        "When an agent failed because it looked at too few rows or columns, propose an edit that asks for broader exploration of the data first.",
        "Never hard-code file paths, cell addresses or expected values.",
      ],
      success: ["If the successful agents read enough rows or explored the sheet cleverly, consider reinforcing that."],
    },
  );
}

/** ALFWorld's six task types, described. */
const ALFWORLD_TASKS: Record<string, string> = {
  pick_and_place_simple: "put an object in or on a receptacle",
  pick_two_obj_and_place: "put two objects of the same kind in or on a receptacle",
  look_at_obj_in_light: "examine an object under a desk lamp",
  pick_heat_then_place_in_recep: "heat an object, then put it in or on a receptacle",
  pick_cool_then_place_in_recep: "cool an object, then put it in or on a receptacle",
  pick_clean_then_place_in_recep: "clean an object, then put it in or on a receptacle",
};

export function alfworldBrief(taxonomy: readonly string[], taskTypes: readonly string[]): AnalystBrief {
  const tasks = taskTypes.map((name) => {
    const description = ALFWORLD_TASKS[name];
    if (description === undefined) throw new Error(`analyst brief: no description for ALFWorld task type '${name}'`);
    return { name, description };
  });
  return brief(
    taxonomy,
    {
      navigation_loop: "the agent keeps revisiting the same places without making progress",
      missed_object: "the agent does not pick up a goal object it could see or reach",
      wrong_sequence: "the agent acts in the wrong order (for example places the object before heating it)",
      premature_stop: "the agent stops, or gets stuck, before every goal condition holds",
      action_loop: "the agent repeats the same action without getting further",
      appliance_error: "the agent misuses or skips an appliance (microwave, fridge, sink)",
      rule_missing: "the skill has no rule for this situation",
    },
    {
      failure: [
        "Fix patterns shared by several episodes; never write the object or receptacle names of one game into the skill.",
      ],
      success: ["If the successful agents explored efficiently or used appliances well, consider reinforcing that."],
    },
    tasks,
  );
}

export function customBrief(taxonomy: readonly string[]): AnalystBrief {
  return brief(
    taxonomy,
    {
      wrong_answer: "the answer is wrong although the needed information was available",
      answer_format: "the content is right but the form of the answer does not match what is scored",
      context_ignored: "the agent did not use the context or instructions it was given",
      incomplete_answer: "the answer covers only part of what was asked",
    },
    {
      failure: [
        "Compare each answer with its reference and work out exactly why it was scored wrong; fix patterns shared by several tasks.",
      ],
      success: ["Reinforce only behaviour that several successful answers share and the skill does not state yet."],
    },
  );
}
