/**
 * SearchQA item shape and load-time validation: `{id, question, context, answers[]}`. Raw HuggingFace
 * rows name the id `key`; a lone answer string is accepted as a one-item list.
 */
import type { Item } from "../../engine/types";
import { invalidItem, type RowOrigin } from "../common/read-items";

/** A validated SearchQA item. */
export type SearchQaItem = Item & { question: string; context: string; answers: string[] };

/** Normalises one raw row (id from `key`, answers as strings) and checks the required fields. */
export function normaliseSearchQaRow(row: Record<string, unknown>, at: RowOrigin): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  if (out.id === undefined && row.key !== undefined) out.id = row.key;
  if (typeof row.question !== "string" || row.question.trim() === "") invalidItem(at, "missing field 'question'");
  if (typeof row.context !== "string") invalidItem(at, "missing field 'context'");
  const answers = toAnswerList(row.answers);
  if (answers === null) invalidItem(at, "missing field 'answers' (a non-empty list of strings)");
  out.answers = answers;
  return out;
}

function toAnswerList(value: unknown): string[] | null {
  const list = typeof value === "string" ? [value] : Array.isArray(value) ? value : null;
  if (list === null || list.length === 0) return null;
  const out: string[] = [];
  for (const v of list) {
    if (typeof v === "string") out.push(v);
    else if (typeof v === "number" && Number.isFinite(v)) out.push(String(v));
    else return null;
  }
  return out;
}

/** The first required field an item lacks at rollout time, or null when it is complete. */
export function missingSearchQaField(item: Item): "question" | "context" | "answers" | null {
  if (typeof item.question !== "string" || item.question.trim() === "") return "question";
  if (typeof item.context !== "string") return "context";
  const answers = item.answers;
  if (!Array.isArray(answers) || answers.length === 0 || !answers.every((a) => typeof a === "string")) return "answers";
  return null;
}
