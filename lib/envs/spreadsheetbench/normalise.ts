/**
 * SpreadsheetBench items (spec §A.9): `id`, `instruction`, `instruction_type` ("Cell-Level
 * Manipulation" / "Sheet-Level Manipulation"), `answer_position` (`Sheet1!A1:C10`, comma-separated,
 * sheet optional or quoted), optional `answer_sheet`, optional `spreadsheet_path` (default
 * `spreadsheet/<id>`, relative to `env.data_root`). The instruction is also kept as `question`, the
 * field the engine and the simulated model read.
 */
import type { Item } from "../../engine/types";
import { invalidItem, type RowOrigin } from "../common/read-items";

function text(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** `cell_level` / `sheet_level` from the instruction type, else `other`. */
export function spreadsheetTaskType(instructionType: string): string {
  const t = instructionType.toLowerCase();
  if (t.includes("cell")) return "cell_level";
  if (t.includes("sheet")) return "sheet_level";
  return "other";
}

/** Normalises one raw row; a missing instruction or answer position is an error naming the item. */
export function normaliseSpreadsheetRow(row: Record<string, unknown>, at: RowOrigin): Record<string, unknown> {
  const instruction = text(row.instruction);
  if (instruction === null || instruction.trim() === "") invalidItem(at, "missing field 'instruction'");
  const position = text(row.answer_position);
  if (position === null || position.trim() === "") invalidItem(at, "missing field 'answer_position'");
  const id = row.id;
  const idText = text(id);
  const type = text(row.instruction_type) ?? "";
  const pathGiven = typeof row.spreadsheet_path === "string" ? row.spreadsheet_path : null;
  if (row.spreadsheet_path !== undefined && row.spreadsheet_path !== null && pathGiven === null) {
    invalidItem(at, "'spreadsheet_path' must be a string");
  }
  return {
    ...row,
    id,
    instruction,
    question: instruction,
    instruction_type: type,
    answer_position: position.trim(),
    answer_sheet: text(row.answer_sheet)?.trim() ?? "",
    spreadsheet_path: pathGiven?.trim() || (idText === null ? "" : `spreadsheet/${idText}`),
    task_type: spreadsheetTaskType(type),
  };
}

/** The first required field an item lacks at rollout time, or null. */
export function missingSpreadsheetField(item: Item): string | null {
  for (const key of ["instruction", "answer_position"]) {
    const value = item[key];
    if (typeof value !== "string" || value.trim() === "") return key;
  }
  return null;
}

/** The task folder of an item relative to the data root (`spreadsheet/<id>` unless given). */
export function spreadsheetPathOf(item: Item): string {
  const given = item.spreadsheet_path;
  return typeof given === "string" && given.trim() !== "" ? given.trim() : `spreadsheet/${item.id}`;
}
