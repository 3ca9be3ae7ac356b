/**
 * Mapping a user's rows onto custom items `{id, question, answers[], context?}`. The field names come
 * from the config (env.question_field …), so the normaliser is built per run. Every problem is one
 * loader error naming the file, the 0-based item index and the config key of the field.
 *
 * Decisions:
 * - Gold answers are a JSON list (of strings or numbers) or a string; a string is split on `|` (trimmed,
 *   empty parts dropped), so a CSV cell can hold several accepted answers. A literal `|` inside an
 *   answer therefore needs a JSON list.
 * - A row without an id (the field absent or empty) gets `h-` + the first 12 hex digits of the sha256 of
 *   its question, answers and context: stable when rows are added, removed or reordered. Two such rows
 *   with the same content are reported as duplicates.
 * - A `sim` key is kept (hidden annotations for the simulated model, as in configs/custom/example.jsonl).
 */
import { createHash } from "node:crypto";
import type { Item } from "../../engine/types";
import { AppError } from "../../errors";
import type { RowNormaliser, RowOrigin } from "../common/read-items";
import { parseNumber } from "./metrics";
import type { CustomOptions } from "./options";

/** A validated custom item. */
export type CustomItem = Item & { question: string; answers: string[]; context?: string };

const CONFIG_KEY = {
  idField: "env.id_field",
  questionField: "env.question_field",
  answerField: "env.answer_field",
  contextField: "env.context_field",
} as const;

function fail(at: RowOrigin, key: keyof typeof CONFIG_KEY, problem: string): never {
  throw new AppError("INVALID_REQUEST", `${at.file}: item ${at.index}: ${problem} (${CONFIG_KEY[key]})`, {
    field: CONFIG_KEY[key],
  });
}

function present(row: Record<string, unknown>): string {
  const keys = Object.keys(row).filter((k) => k !== "sim");
  return keys.length === 0 ? "no fields" : `fields: ${keys.slice(0, 12).join(", ")}${keys.length > 12 ? ", …" : ""}`;
}

/** A scalar cell as text (numbers and booleans are written the way JSON writes them), else null. */
function scalarText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return null;
}

/** The gold answers of a cell: a list of scalars, or a `|`-separated string; null when unusable. */
export function parseAnswerCell(value: unknown): string[] | null {
  const parts = Array.isArray(value) ? value.map(scalarText) : (scalarText(value)?.split("|") ?? [null]);
  if (parts.some((p) => p === null)) return null;
  const answers = (parts as string[]).map((p) => p.trim()).filter((p) => p !== "");
  return answers.length === 0 ? null : answers;
}

/** The stable id of a row that has none. */
export function contentId(question: string, answers: readonly string[], context: string): string {
  const digest = createHash("sha256")
    .update([question, answers.join("\u0001"), context].join("\u0000"))
    .digest("hex");
  return `h-${digest.slice(0, 12)}`;
}

/**
 * Items written by an earlier ratio split (`_generated_splits/…/items.json`) are already normalised:
 * read them back under the configured names so a split folder of them loads with the same config.
 */
function canonicalRow(row: Record<string, unknown>, opts: CustomOptions): Record<string, unknown> {
  const normalised = !(opts.questionField in row) && typeof row.question === "string" && Array.isArray(row.answers);
  if (!normalised) return row;
  const out: Record<string, unknown> = { ...row, [opts.questionField]: row.question, [opts.answerField]: row.answers };
  if (opts.contextField !== "" && !(opts.contextField in row)) out[opts.contextField] = row.context ?? "";
  if (!(opts.idField in row)) out[opts.idField] = row.id;
  return out;
}

/**
 * The row normaliser for `opts`. Build one per load: it remembers the content ids it handed out per
 * file, so two identical id-less rows get a clear message.
 */
export function createCustomNormaliser(opts: CustomOptions): RowNormaliser {
  const handedOut = new Map<string, Map<string, number>>();
  return (raw, at) => {
    const row = canonicalRow(raw, opts);
    const q = opts.questionField;
    if (!(q in row)) fail(at, "questionField", `missing field '${q}'; the item has ${present(row)}`);
    const question = scalarText(row[q]);
    if (question === null || question.trim() === "") fail(at, "questionField", `field '${q}' must be a non-empty text`);
    const a = opts.answerField;
    if (!(a in row)) fail(at, "answerField", `missing field '${a}'; the item has ${present(row)}`);
    const answers = parseAnswerCell(row[a]);
    if (answers === null) fail(at, "answerField", `field '${a}' must be a non-empty text, a number or a list of them`);
    if (opts.metric === "numeric") {
      const bad = answers.find((g) => parseNumber(g) === null);
      if (bad !== undefined) fail(at, "answerField", `gold answer '${bad}' is not a number (metric numeric)`);
    }
    const out: Record<string, unknown> = { question, answers };
    let context = "";
    if (opts.contextField !== "") {
      const c = opts.contextField;
      if (!(c in row)) fail(at, "contextField", `missing field '${c}'; the item has ${present(row)}`);
      const raw = row[c];
      const value = raw === null ? "" : (scalarText(raw) ?? (typeof raw === "object" ? JSON.stringify(raw) : null));
      if (value === null) fail(at, "contextField", `field '${c}' must be a text`);
      context = value;
      out.context = value;
    }
    const rawId = row[opts.idField];
    if (rawId !== undefined && rawId !== null && rawId !== "") {
      const id = scalarText(rawId);
      if (id === null || typeof rawId === "boolean")
        fail(at, "idField", `field '${opts.idField}' must be a text or a number`);
      out.id = id;
    } else {
      const id = contentId(question, answers, context);
      const seen = handedOut.get(at.file) ?? new Map<string, number>();
      handedOut.set(at.file, seen);
      const first = seen.get(id);
      if (first !== undefined)
        fail(
          at,
          "idField",
          `same question, answer and context as item ${first} and no '${opts.idField}' to tell them apart`,
        );
      seen.set(id, at.index);
      out.id = id;
    }
    if (row.sim !== undefined) out.sim = row.sim;
    return out;
  };
}

/** The first required field an item lacks at rollout time, or null when it is complete. */
export function missingCustomField(item: Item): "question" | "answers" | null {
  if (typeof item.question !== "string" || item.question.trim() === "") return "question";
  const answers = item.answers;
  if (!Array.isArray(answers) || answers.length === 0 || !answers.every((x) => typeof x === "string")) return "answers";
  return null;
}
