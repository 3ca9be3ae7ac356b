/**
 * The ALFWorld target prompts (our own wording). The system prompt is one fixed line; the user message
 * starts with the skill under a "Skill Knowledge" heading (closed by an end marker, since skills carry
 * their own headings), then the observation: the first step shows the observation and the admissible
 * actions; later steps add the task, the step count and the last two observation/action pairs.
 */

/** The fixed system prompt of every step. */
export const ALFWORLD_SYSTEM_PROMPT =
  "You are an agent in a text-based household simulator: you move between receptacles and handle objects by typing one command per turn.";

export const SKILL_HEADING = "## Skill Knowledge";
export const SKILL_LEAD_IN =
  "Use the following household know-how, learned from earlier episodes, whenever it applies.";
export const SKILL_END = "## End of Skill Knowledge";

/** How many earlier (observation, action) pairs the history template shows. */
export const HISTORY_PAIRS = 2;

const REPLY_FORMAT =
  "First reason about the situation inside <think></think>. Then give exactly one admissible action, " +
  "copied verbatim, inside <action></action>.";

/** The skill section that opens the user message ("" for a blank skill). */
export function skillSection(skill: string): string {
  const body = skill.trim();
  if (body === "") return "";
  return `${SKILL_HEADING}\n${SKILL_LEAD_IN}\n\n${body}\n\n${SKILL_END}\n\n`;
}

/** Admissible actions quoted and comma/newline joined, without `help`. */
export function formatAdmissible(actions: readonly string[]): string {
  return actions
    .filter((a) => a !== "help")
    .map((a) => `'${a}'`)
    .join(",\n");
}

/** The first step: current observation and admissible actions. */
export function firstStepPrompt(observation: string, admissible: readonly string[]): string {
  return [
    "## Current Observation",
    observation.trim(),
    "",
    "## Admissible Actions",
    formatAdmissible(admissible),
    "",
    REPLY_FORMAT,
  ].join("\n");
}

/** One earlier step as the history shows it. */
export interface HistoryPair {
  observation: string;
  action: string;
}

/** Later steps: task, step count, the last pairs, the current step, observation and actions. */
export function historyStepPrompt(opts: {
  task: string;
  stepsTaken: number;
  history: readonly HistoryPair[];
  observation: string;
  admissible: readonly string[];
}): string {
  const recent = opts.history.slice(-HISTORY_PAIRS);
  const first = opts.stepsTaken - recent.length + 1;
  const pairs = recent.map(
    (h, i) => `[Observation ${first + i}: '${h.observation.trim()}', Action ${first + i}: '${h.action}']`,
  );
  return [
    "## Task",
    `Your task is to: ${opts.task}`,
    "",
    "## Recent History",
    `You have taken ${opts.stepsTaken} step(s) so far. The last ${recent.length} observation/action pair(s):`,
    ...pairs,
    "",
    "## Current Step",
    `Step ${opts.stepsTaken + 1}.`,
    `Current observation: ${opts.observation.trim()}`,
    "",
    "## Admissible Actions",
    formatAdmissible(opts.admissible),
    "",
    REPLY_FORMAT,
  ].join("\n");
}

/** The task sentence: the text after "Your task is to: " in the first observation. */
export function taskFromObservation(observation: string): string {
  const m = /Your task is to:\s*(.+)/.exec(observation);
  return (m?.[1] ?? observation).trim();
}

/** What a reply contains: the action (lower case), the reasoning, and whether the format was kept. */
export interface ParsedReply {
  action: string | null;
  reasoning: string;
  /** A reply without <think>, or with CJK characters, is flagged but still executed. */
  valid: boolean;
  problem?: string;
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;

/** Reads `<think>` and the last `<action>` of a reply. */
export function parseReply(text: string): ParsedReply {
  const think = /<think>([\s\S]*?)<\/think>/i.exec(text);
  let action: string | null = null;
  for (const m of text.matchAll(/<action>([\s\S]*?)<\/action>/gi)) action = m[1]!;
  const cleaned = action === null ? null : action.replace(/\s+/g, " ").trim().toLowerCase();
  const problems: string[] = [];
  if (cleaned === null || cleaned === "") problems.push("no <action> tag");
  if (!think) problems.push("no <think> tag");
  if (CJK.test(text)) problems.push("contains CJK characters");
  return {
    action: cleaned === null || cleaned === "" ? null : cleaned,
    reasoning: (think?.[1] ?? "").trim(),
    valid: problems.length === 0,
    ...(problems.length ? { problem: problems.join(", ") } : {}),
  };
}
