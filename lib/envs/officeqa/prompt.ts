/**
 * The OfficeQA target prompts (our own wording). With local tools the system prompt explains the text
 * tool protocol; without them the model answers from the source hints alone. The skill section sits
 * where the original puts it: after the role line with tools, after the whole (short) instructions
 * without them, before the final answer line in search mode. The user prompt starts with `## Question` (the simulated model
 * recognises items by it), then the candidate files and source hints.
 */
import { withSkillSection } from "../common/skill-prompt";
import { GLOB_MAX_HITS, GREP_MAX_HITS, READ_DEFAULT_LIMIT, READ_MAX_CHARS } from "./tools";

/** At most this many candidate files are listed in the user prompt. */
export const MAX_LISTED_CANDIDATES = 20;

/** The tool-using agent's role line; the skill section follows it. */
export const OFFICEQA_TOOLS_ROLE =
  "You answer questions about a collection of office documents: treasury bulletins, financial reports and budget tables.";

/** The tool-using agent's instructions, after the skill section. */
const OFFICEQA_TOOLS_INSTRUCTIONS = [
  "The documents are plain-text files. You cannot see them until you look: search and read them with three tools.",
  "",
  "To use a tool, write a block like this (one or more per reply):",
  '<tool_call>{"name": "grep", "arguments": {"pattern": "total receipts", "path": "report.md"}}</tool_call>',
  "",
  "Tools:",
  `- glob {"pattern"}: document paths matching a shell-style pattern such as *2024*; at most ${GLOB_MAX_HITS} paths.`,
  `- read {"path", "start", "limit"}: numbered lines of one document from line "start" (default 1), "limit" lines (default ${READ_DEFAULT_LIMIT}), at most ${READ_MAX_CHARS} characters.`,
  `- grep {"pattern", "path"}: lines containing the text (case-insensitive, literal), as "line: text"; at most ${GREP_MAX_HITS}. Without "path" it searches every file you may use.`,
  "The results come back in the next message inside <tool_result> blocks.",
  "",
  "Strategy: narrow down to the most relevant file before reading long passages; prefer short targeted searches, then",
  "small reads around the matching lines. When the question needs arithmetic, compute only after you have extracted",
  "the exact operands from the text.",
  "",
  "Base the answer on what the documents say, not on memory. When you have it, reply with the answer inside",
  "<answer></answer> and no tool call. Put only the requested value in the answer tags.",
].join("\n");

/** The tool-using agent's system prompt of a blank skill. */
export const OFFICEQA_TOOLS_SYSTEM_BASE = withSkillSection(OFFICEQA_TOOLS_ROLE, "", OFFICEQA_TOOLS_INSTRUCTIONS);

/** Instructions when local tools are off: answer from the hints. */
export const OFFICEQA_PLAIN_SYSTEM_BASE = [
  "You answer questions about a collection of office documents: treasury bulletins, financial reports and budget tables.",
  "You cannot open the documents in this mode; the hints below name the sources that hold the evidence.",
  "Reason briefly, then give your final answer inside <answer></answer>. Put only the requested value in the answer tags.",
].join("\n");

/** The web-search agent's protocol (`search_mode: custom_search`), before the skill section. */
function searchProtocol(maxQueries: number): string {
  return [
    "You answer questions about office documents (treasury bulletins, financial reports, budget tables) with the help of a web search.",
    `To search, reply with up to ${maxQueries} queries as a JSON list inside one block, for example:`,
    '<search_queries>["Treasury Bulletin June 1945 public debt outstanding", "..."]</search_queries>',
    "The results come back in the next message inside <search_results> blocks.",
  ].join("\n");
}

/** The web-search agent's final answer line, after the skill section. */
const SEARCH_ANSWER_LINE =
  "When you have the answer, reply with it inside <answer></answer> and no further queries. Put only the requested value in the answer tags.";

/** The search agent's system prompt: protocol, skill section, final answer line. */
export function buildSearchSystemPrompt(skill: string, maxQueries: number): string {
  return withSkillSection(searchProtocol(maxQueries), skill, SEARCH_ANSWER_LINE);
}

/** The system prompt for the mode: with tools the skill follows the role line, without them it comes last. */
export function buildOfficeQaSystemPrompt(skill: string, useTools: boolean): string {
  return useTools
    ? withSkillSection(OFFICEQA_TOOLS_ROLE, skill, OFFICEQA_TOOLS_INSTRUCTIONS)
    : withSkillSection(OFFICEQA_PLAIN_SYSTEM_BASE, skill);
}

/** Inputs of `buildOfficeQaUserPrompt`. */
export interface OfficeQaPromptInput {
  question: string;
  /** Relative paths of the files the question may use (only listed when tools are on). */
  candidates: readonly string[];
  sourceFiles: readonly string[];
  sourceDocs: readonly string[];
  useTools: boolean;
}

/** `## Question`, then (with tools) `## Candidate files`, then `## Source hints` when there are any. */
export function buildOfficeQaUserPrompt(input: OfficeQaPromptInput): string {
  const parts = [`## Question\n${input.question.trim()}`];
  if (input.useTools) {
    const shown = input.candidates.slice(0, MAX_LISTED_CANDIDATES).map((c) => `- ${c}`);
    const more = input.candidates.length - shown.length;
    if (more > 0) shown.push(`- … and ${more} more (use glob to list them)`);
    parts.push(`## Candidate files\n${shown.length > 0 ? shown.join("\n") : "(none found; use glob)"}`);
  }
  const hints = [
    ...input.sourceFiles.map((f) => `- source file: ${f}`),
    ...input.sourceDocs.map((d) => `- source document: ${d}`),
  ];
  if (hints.length > 0) parts.push(`## Source hints\n${hints.join("\n")}`);
  return parts.join("\n\n");
}
