/**
 * OfficeQA item shape and load-time validation. The original's materialised rows (CSV or JSON) carry
 * `uid|id`, `question`, `ground_truth|answer`, `category|difficulty`, `source_files`, `source_docs` and
 * `split`; list fields may be a JSON list, a JSON-encoded list in a string, newline- or comma-separated
 * text (a single `.txt` name is never comma-split: such names may contain commas).
 */
import type { Item } from "../../engine/types";
import { invalidItem, type RowOrigin } from "../common/read-items";

/** A validated OfficeQA item. */
export type OfficeQaItem = Item & {
  question: string;
  ground_truth: string;
  answers: string[];
  task_type: string;
  source_files: string[];
  source_docs: string[];
};

/** A list field: a JSON array, a JSON-array string, newline-separated, or comma-separated (unless it ends in `.txt`). */
export function parseListField(value: unknown): string[] | null {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) {
    return value.every((v) => typeof v === "string" || typeof v === "number")
      ? value.map((v) => String(v).trim()).filter((v) => v !== "")
      : null;
  }
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (text === "") return [];
  if (text.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parseListField(parsed);
    } catch {
      // not JSON: fall through to the text forms
    }
  }
  const parts = text.includes("\n")
    ? text.split(/\r?\n/)
    : text.toLowerCase().endsWith(".txt")
      ? [text]
      : text.split(",");
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

function textField(value: unknown): string | null {
  if (typeof value === "string") return value.trim() === "" ? null : value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** Normalises one raw row into an OfficeQA item, or throws naming the file, the item index and the field. */
export function normaliseOfficeQaRow(row: Record<string, unknown>, at: RowOrigin): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  const id = textField(row.uid) ?? textField(row.id);
  if (id === null) invalidItem(at, "missing field 'uid' (or 'id')");
  out.id = id;
  const question = textField(row.question);
  if (question === null) invalidItem(at, "missing field 'question'");
  out.question = question;
  const truth = textField(row.ground_truth) ?? textField(row.answer);
  if (truth === null) invalidItem(at, "missing field 'ground_truth' (or 'answer')");
  out.ground_truth = truth;
  out.answers = [truth];
  const category = textField(row.category) ?? textField(row.difficulty) ?? textField(row.task_type);
  out.task_type = category === null ? "officeqa" : category.trim();
  for (const key of ["source_files", "source_docs"] as const) {
    const list = parseListField(row[key]);
    if (list === null) invalidItem(at, `field '${key}' must be a list of strings, a JSON list or separated text`);
    out[key] = list;
  }
  return out;
}

/** The first required field an item lacks at rollout time, or null when it is complete. */
export function missingOfficeQaField(item: Item): string | null {
  if (typeof item.question !== "string" || item.question.trim() === "") return "question";
  const answers = item.answers;
  if (!Array.isArray(answers) || answers.length === 0 || !answers.every((a) => typeof a === "string")) return "answers";
  if (!Array.isArray(item.source_files) || !item.source_files.every((f) => typeof f === "string"))
    return "source_files";
  return null;
}
