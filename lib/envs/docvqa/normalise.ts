/**
 * DocVQA items (spec §A.6). Split folders hold CSV files whose columns are `questionId|id`, `question`
 * (which may end with `document_path:<path>`), `answer|ground_truth` (usually a Python-literal list
 * string), `image_path`, `topic|category`, `docId`, `ucsf_document_id`, `ucsf_document_page_no`,
 * `source_split`; ratio data files may be JSON/JSONL/CSV with the same keys. The normalised item is
 * `{id, question, answer, answers[], task_type, subtask, image_path, image_paths[], source_dir?, …}`.
 *
 * Image paths are kept as written; they are resolved when the image is read (see `image.ts`), relative
 * to `source_dir` — the folder of the file the row came from, recorded here — then the split_dir, then
 * the project root.
 */
import path from "node:path";
import type { Item } from "../../engine/types";
import { invalidItem, type RowOrigin } from "../common/read-items";
import { extractGoldAnswers } from "./evaluate";
import { parsePythonLiteral } from "./py-literal";

/** A validated DocVQA item. */
export type DocVqaItem = Item & {
  question: string;
  answer: string;
  answers: string[];
  task_type: string;
  image_path: string;
  image_paths: string[];
  source_dir?: string;
};

export const DEFAULT_TASK_TYPE = "docvqa";

const DOCUMENT_PATH = /\s*document_path:\s*/i;

function text(value: unknown): string | null {
  if (typeof value === "string") return value.trim() === "" ? null : value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** `"What is the date? document_path: docs/a.png"` → question and the embedded path (if any). */
export function splitDocumentPath(raw: string): { question: string; documentPath: string | null } {
  const m = DOCUMENT_PATH.exec(raw);
  if (!m) return { question: raw.trim(), documentPath: null };
  const documentPath = raw.slice(m.index + m[0].length).trim();
  return { question: raw.slice(0, m.index).trim(), documentPath: documentPath === "" ? null : documentPath };
}

/** A topic cell: `table/list`, `handwritten|form`, or a list literal `['handwritten', 'form']` → `handwritten|form`. */
function taskTypeOf(row: Record<string, unknown>): string {
  const raw = row.topic ?? row.category ?? row.task_type;
  const list = Array.isArray(raw)
    ? raw
    : typeof raw === "string" && raw.trim().startsWith("[")
      ? parsePythonLiteral(raw.trim())
      : null;
  if (Array.isArray(list)) {
    const parts = list
      .map(text)
      .filter((t): t is string => t !== null)
      .map((t) => t.trim());
    return parts.length > 0 ? parts.join("|") : DEFAULT_TASK_TYPE;
  }
  return text(raw)?.trim() ?? DEFAULT_TASK_TYPE;
}

/**
 * The gold answers, stripped, empty ones dropped (as the original's loader). Null when the row gives no
 * answer at all (an error); [] when it explicitly gives an empty list such as `[""]` or `[]`, which the
 * original keeps and scores against "" (only an empty prediction matches).
 */
function answersOf(row: Record<string, unknown>): string[] | null {
  const given = Array.isArray(row.answers) ? row.answers : (row.answer ?? row.ground_truth ?? row.answers);
  if (given === undefined || given === null || given === "") return null;
  const answers = extractGoldAnswers(given)
    .map((a) => a.trim())
    .filter((a) => a !== "");
  if (answers.length > 0) return answers;
  const explicitList = Array.isArray(given) || (typeof given === "string" && given.trim().startsWith("["));
  return explicitList ? [] : null;
}

function imagePathsOf(row: Record<string, unknown>, embedded: string | null): string[] {
  const listed = Array.isArray(row.image_paths) ? row.image_paths.map(text) : [];
  const all = [...listed, text(row.image_path), embedded].filter((p): p is string => p !== null).map((p) => p.trim());
  return [...new Set(all)];
}

/** Normalises one raw row; a row without id, question, answer or image names its file and index. */
export function normaliseDocVqaRow(row: Record<string, unknown>, at: RowOrigin): Record<string, unknown> {
  const id = text(row.questionId) ?? text(row.id);
  if (id === null) invalidItem(at, "missing field 'questionId' (or 'id')");
  const rawQuestion = text(row.question);
  if (rawQuestion === null) invalidItem(at, "missing field 'question'");
  const { question, documentPath } = splitDocumentPath(rawQuestion);
  if (question === "") invalidItem(at, "field 'question' has no text before 'document_path:'");
  const answers = answersOf(row);
  if (answers === null) invalidItem(at, "missing field 'answer' (or 'ground_truth'): no gold answer");
  const imagePaths = imagePathsOf(row, documentPath);
  if (imagePaths.length === 0)
    invalidItem(at, "no document image: give 'image_path' or 'document_path:' in the question");
  const taskType = taskTypeOf(row);
  const out: Record<string, unknown> = {
    ...row,
    id,
    question,
    answer: answers[0] ?? "",
    answers,
    task_type: taskType,
    subtask: text(row.subtask) ?? taskType,
    image_path: imagePaths[0],
    image_paths: imagePaths,
  };
  // Rows read from a real file remember its folder, so relative image paths resolve next to it.
  if (out.source_dir === undefined && path.isAbsolute(at.file)) out.source_dir = path.dirname(at.file);
  return out;
}

/** The first required field an item lacks at rollout time, or null when it is complete. */
export function missingDocVqaField(item: Item): "question" | "answers" | "image_path" | null {
  if (typeof item.question !== "string" || item.question.trim() === "") return "question";
  const answers = item.answers;
  // An empty list is an explicit empty gold (scored against ""), as in the original.
  if (!Array.isArray(answers) || !answers.every((a) => typeof a === "string")) return "answers";
  if (typeof item.image_path !== "string" || item.image_path.trim() === "") return "image_path";
  return null;
}
