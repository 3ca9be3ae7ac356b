/**
 * SpreadsheetBench target prompts (our own wording): a code-generation system prompt ending with the
 * skill section; a user message with the instruction, its type, the answer position and a workbook
 * preview; the follow-up messages of the multi-turn loop. Feedback never shows expected values.
 */
import { withSkillSection } from "../common/skill-prompt";
import type { CellCheck } from "./evaluate";

/** The instructions every rollout starts from (before the skill section); pandas is offered only when installed. */
export function spreadsheetSystemBase(pandas: boolean): string {
  return [
    "You write Python scripts that edit Excel workbooks.",
    `Write ONE self-contained Python 3 script that uses only the standard library and openpyxl${pandas ? " (pandas is available too)" : ""}.`,
    "The variables INPUT_PATH (the workbook to read) and OUTPUT_PATH (where to save the result) are already defined when the script runs; do not assign them.",
    "Load the workbook from INPUT_PATH, make the change the instruction asks for, and save the whole workbook to OUTPUT_PATH.",
    "The same script is run on other workbooks with the same layout but different data.",
    "Do not print anything, do not call input(), and do not hard-code file paths (use INPUT_PATH and OUTPUT_PATH).",
    "Reply with the complete script in a single ```python fenced block.",
  ].join("\n");
}

/** The base instructions for an interpreter without pandas. */
export const SPREADSHEET_SYSTEM_BASE = spreadsheetSystemBase(false);

/** The system prompt: the base instructions, then the skill section last (the original's code-writing placement). */
export function buildSpreadsheetSystemPrompt(skill: string, pandas = false): string {
  return withSkillSection(spreadsheetSystemBase(pandas), skill);
}

/** One sheet of the preview, as python/xlsx_tool.py reports it. */
export interface PreviewSheet {
  name: string;
  dims: string;
  max_row: number;
  max_col: number;
  /** `[ref, value]`, first 5 rows × 20 columns, values over 40 characters already cut. */
  cells: Array<[string, string]>;
}

/** The preview text: per sheet its name, dimensions and first cells as `A1=value`. */
export function formatPreview(sheets: readonly PreviewSheet[]): string {
  return sheets
    .map((s) => {
      const head = `Sheet "${s.name}" (dimensions ${s.dims}, max_row=${s.max_row}, max_col=${s.max_col})`;
      const cells =
        s.cells.length === 0
          ? "  (no values in the first rows)"
          : `  ${s.cells.map(([ref, v]) => `${ref}=${v}`).join(" | ")}`;
      return `${head}\n${cells}`;
    })
    .join("\n");
}

/** What the first user message shows. */
export interface SpreadsheetPromptParts {
  instruction: string;
  instructionType: string;
  answerPosition: string;
  preview: string;
}

/** `## Instruction`, `## Instruction Type`, `## Answer Position`, `## Workbook Preview`, `## Task`. */
export function buildSpreadsheetUserPrompt(p: SpreadsheetPromptParts): string {
  return [
    `## Instruction\n${p.instruction}`,
    `## Instruction Type\n${p.instructionType || "unspecified"}`,
    `## Answer Position\n${p.answerPosition}`,
    `## Workbook Preview (first 5 rows of each sheet)\n${p.preview}`,
    "## Task\nWrite the script. The preview shows only the top of each sheet; read the actual extent of the data in the script instead of hard-coding row counts.",
  ].join("\n\n");
}

/** The first fenced code block (python preferred), else the whole reply; trimmed. */
export function extractCode(reply: string): string {
  const blocks = [...reply.matchAll(/```([\w+-]*)[^\n]*\n([\s\S]*?)```/g)];
  const python = blocks.find((b) => /^(python|py|python3)?$/i.test(b[1] ?? ""));
  const chosen = python ?? blocks[0];
  if (chosen) return (chosen[2] ?? "").trim();
  return reply.includes("```") ? "" : reply.trim();
}

/** Asks again after a reply without code. */
export const EMPTY_CODE_MESSAGE =
  "Your reply contained no Python code. Reply with the complete script in one ```python fenced block.";

/** Feedback after the script raised (error text cut to its last 3000 characters). */
export function execErrorMessage(error: string): string {
  const tail = error.length > 3000 ? `…${error.slice(error.length - 2999)}` : error;
  return `Running your script on the workbook failed:\n\n${tail}\n\nFix the problem and reply with the complete corrected script in one \`\`\`python block.`;
}

const MAX_FEEDBACK_CELLS = 40;

/**
 * Feedback after a run whose answer cells are wrong (training rollouts only): the wrong cells with the
 * values the script produced and the number of correct cells. Expected values are never shown.
 */
export function wrongCellsMessage(
  cells: readonly CellCheck[],
  missingSheets: readonly string[],
  nCorrect: number,
): string {
  const wrong = cells.filter((c) => !c.ok);
  const lines = wrong.slice(0, MAX_FEEDBACK_CELLS).map((c) => `- ${c.ref}: your script wrote ${c.got}`);
  if (wrong.length > MAX_FEEDBACK_CELLS) lines.push(`- … and ${wrong.length - MAX_FEEDBACK_CELLS} more`);
  const sheets = missingSheets.map((s) => `- sheet '${s}' does not exist in your output`);
  return [
    `Your script ran, but the result is not right yet: ${nCorrect} answer cells are correct, these are not:`,
    ...sheets,
    ...lines,
    "Re-read the instruction and the data, then reply with the complete corrected script in one ```python block.",
  ].join("\n");
}
