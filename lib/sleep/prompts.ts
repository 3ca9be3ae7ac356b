/**
 * Every prompt Sleep sends a model, in one registry (spec D.12): the texts can be shown (a dashboard's
 * `describe()`) and replaced without code changes through an override file (`<state dir>/prompts.json`
 * or `SKILLOPT_SLEEP_PROMPTS_PATH`) that is re-read whenever its modification time changes, so an edit
 * made during a night applies from the next call. Placeholders are `__NAME__`, filled by plain string
 * replacement because the templates themselves contain JSON braces.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { AppError } from "../errors";
import { writeFileAtomic } from "./fs-safe";

export const PROMPT_NAMES = ["miner", "attempt", "judge", "reflect", "contrastive"] as const;
export type PromptName = (typeof PROMPT_NAMES)[number];

const MINER = `You read one of a user's past sessions with a coding assistant and pick out tasks that recur or that the
user had to correct, where a general rule in the assistant's skill would help the next time. Return at most
three; return none for one-off or exploratory requests.

For each task give:
  - "intent": the request in reusable form, without one-off details.
  - "rubric": one sentence on what a good answer achieves, judged on substance rather than wording. Always
    give one: it is the main grader, because any literal check can be passed by printing the expected text.
  - "checks": checks a program can run on a future answer. Prefer checks on what the answer does:
      {"op":"contains","arg":"<text a correct answer contains>"}
      {"op":"not_contains","arg":"<text a correct answer never contains>"}
      {"op":"no_refusal"}
      {"op":"regex","arg":"<regular expression the answer matches>"}
      {"op":"tool_called","arg":"<tool the task needs>"}
    Formatting checks exist but are weak on their own; use them only next to an outcome check:
      {"op":"section_present","arg":"<heading text>"}
      {"op":"section_contains","arg":"<text inside a markdown heading>"}
      {"op":"max_chars","arg":<integer>}
      {"op":"min_chars","arg":<integer>}
    Include only checks a good answer certainly passes.
  - "satisfied": true or false — did the user seem content with the assistant's last answer?

Reply with a JSON array only (it may be empty), no prose.

# Session
project: __PROJECT__
user prompts:
__PROMPTS__
last assistant answer:
__FINAL__
feedback signals: __FEEDBACK__
`;

const ATTEMPT = `Do the following task for the user. Apply the skill and memory guidance below, including any rules on
output format and length. Where a rule in the learned block sets an explicit limit, it refines and takes
precedence over more general advice.

# Skill
__SKILL__

# Memory
__MEMORY__

# Task
__INTENT__

__CONTEXT__

Reply with the final answer only.`;

const JUDGE = `Rate from 0 to 1 how well the response meets the rubric. Reply with JSON only:
{"score": <number from 0 to 1>, "reason": "<one sentence>"}

# Rubric
__RUBRIC__

# Response
__RESPONSE__`;

const REFLECT = `You improve an assistant's __TARGET__ document. The assistant keeps failing the recurring tasks listed
below. Propose at most __EDIT_BUDGET__ edits that would stop these failures. Each edit is a short, general,
reusable rule — never an answer to one particular task. When failing criteria are listed, the rules must make
future answers meet every one of them, quoting the exact limit, heading or format (write "keep the whole
answer under 1200 characters", not "respect length limits"): vague rules change nothing.
Your rules are appended to a learned block; the rest of the document cannot be deleted. When existing text
conflicts with a criterion, write a rule that says explicitly that it takes precedence, requirement first.
Every rule must respect the task output contract below when one is shown: never change the required output
format or language, and never tell the assistant to ask the user a question.
Reply with a JSON array only:
[{"op":"add|replace|delete","content":"<rule>","anchor":"<text to replace or delete, optional>","rationale":"<why>"}]

# Current __TARGET__
__CUR_DOC__
__GUARD____CRITERIA__
__PREFS__

# Recurring failures
__FAILURES__`;

const CONTRASTIVE = `The assistant ran each task below several times, and some attempts scored better than others. Work out
what the better attempts did that the worse ones did not, and propose at most __EDIT_BUDGET__ short, general,
reusable rules for the __TARGET__ that would make the better behaviour reliable. Quote concrete limits and
formats exactly. Never propose a rule that changes the required output format or language, or that tells the
assistant to ask the user a question.
__GUARD__Reply with a JSON array only: [{"op":"add","content":"<rule>","rationale":"<what the better attempts did>"}]

__BLOCKS__`;

interface PromptMeta {
  text: string;
  stage: string;
  role: "optimizer" | "target";
  description: string;
  placeholders: string[];
}

export const DEFAULT_PROMPTS: Readonly<Record<PromptName, PromptMeta>> = {
  miner: {
    text: MINER,
    stage: "mine",
    role: "optimizer",
    description: "Turns one session digest into up to three checkable tasks.",
    placeholders: ["__PROJECT__", "__PROMPTS__", "__FINAL__", "__FEEDBACK__"],
  },
  attempt: {
    text: ATTEMPT,
    stage: "replay",
    role: "target",
    description: "The rollout: solve a mined task with only the skill and memory as context.",
    placeholders: ["__SKILL__", "__MEMORY__", "__INTENT__", "__CONTEXT__"],
  },
  judge: {
    text: JUDGE,
    stage: "replay",
    role: "optimizer",
    description: "Grades a response against a rubric (JSON score 0..1).",
    placeholders: ["__RUBRIC__", "__RESPONSE__"],
  },
  reflect: {
    text: REFLECT,
    stage: "reflect",
    role: "optimizer",
    description: "Proposes bounded skill or memory edits from the recurring failures.",
    placeholders: [
      "__EDIT_BUDGET__",
      "__TARGET__",
      "__CUR_DOC__",
      "__GUARD__",
      "__CRITERIA__",
      "__PREFS__",
      "__FAILURES__",
    ],
  },
  contrastive: {
    text: CONTRASTIVE,
    stage: "reflect",
    role: "optimizer",
    description: "Distils rules from the contrast of better and worse attempts at the same tasks.",
    placeholders: ["__EDIT_BUDGET__", "__TARGET__", "__GUARD__", "__BLOCKS__"],
  },
};

export interface PromptDescription extends PromptMeta {
  name: PromptName;
  default: string;
  override: string | null;
  effective: string;
}

export class PromptRegistry {
  private cache: { mtimeMs: number; data: Partial<Record<PromptName, string>> } | null = null;

  /** `path`: the override file (it need not exist); null: defaults only. */
  constructor(readonly path: string | null) {}

  overrides(): Partial<Record<PromptName, string>> {
    if (!this.path || !existsSync(this.path)) return {};
    const mtimeMs = statSync(this.path).mtimeMs;
    if (this.cache && this.cache.mtimeMs === mtimeMs) return this.cache.data;
    const data = parseOverrides(this.path, readFileSync(this.path, "utf8"));
    this.cache = { mtimeMs, data };
    return data;
  }

  template(name: PromptName): string {
    return this.overrides()[name] ?? DEFAULT_PROMPTS[name].text;
  }

  render(name: PromptName, values: Record<string, string>): string {
    let text = this.template(name);
    for (const [k, v] of Object.entries(values)) text = text.split(k).join(v);
    return text;
  }

  describe(): PromptDescription[] {
    const ov = this.overrides();
    return PROMPT_NAMES.map((name) => ({
      name,
      ...DEFAULT_PROMPTS[name],
      default: DEFAULT_PROMPTS[name].text,
      override: ov[name] ?? null,
      effective: ov[name] ?? DEFAULT_PROMPTS[name].text,
    }));
  }

  /** Merges `changes` into the override file; an empty or null value reverts that prompt to its default. */
  save(changes: Partial<Record<string, string | null>>): Partial<Record<PromptName, string>> {
    if (!this.path) throw new AppError("INVALID_REQUEST", "prompt overrides: no override file is configured");
    const next: Record<string, string> = { ...this.overrides() };
    for (const [k, v] of Object.entries(changes)) {
      if (!(PROMPT_NAMES as readonly string[]).includes(k))
        throw new AppError(
          "INVALID_REQUEST",
          `prompt overrides: unknown prompt '${k}'; known: ${PROMPT_NAMES.join(", ")}`,
          { field: k },
        );
      if (v === null || v === undefined || v.trim() === "") delete next[k];
      else next[k] = v;
    }
    writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`);
    this.cache = null;
    return next;
  }
}

function parseOverrides(path: string, text: string): Partial<Record<PromptName, string>> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new AppError("INVALID_REQUEST", `${path}: not valid JSON (${(err as Error).message})`, { field: path });
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new AppError("INVALID_REQUEST", `${path}: expected an object of prompt name → text`, { field: path });
  const out: Partial<Record<PromptName, string>> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (!(PROMPT_NAMES as readonly string[]).includes(k))
      throw new AppError("INVALID_REQUEST", `${path}: unknown prompt '${k}'; known: ${PROMPT_NAMES.join(", ")}`, {
        field: k,
      });
    if (typeof v !== "string") throw new AppError("INVALID_REQUEST", `${path}: ${k}: expected a string`, { field: k });
    if (v.trim() !== "") out[k as PromptName] = v;
  }
  return out;
}
