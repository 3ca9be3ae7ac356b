/**
 * LiveMathematicianBench items (spec §A.8). Raw monthly rows keep the MCQ under `mcq` or at top level;
 * choices come as `{label, text|content}` objects, plain strings (labelled A, B, C… by position) or a
 * `{label: text}` map; the correct choice as `{label, text}` or a bare label. Output items are
 * `{id:"<month>:<no>", month, no, question, choices, correct_choice, theorem, sketch, theorem_type[]}`.
 */
import type { Item } from "../../engine/types";
import { invalidItem, isRecord, type RowOrigin } from "../common/read-items";

/** One answer option. */
export type Choice = { label: string; text: string };

/** A validated LiveMath item. */
export type LiveMathItem = Item & {
  month: string;
  no: number;
  question: string;
  choices: Choice[];
  correct_choice: Choice;
  theorem: string;
  sketch: string;
  theorem_type: string[];
};

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

function str(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

function toChoices(raw: unknown, at: RowOrigin): Choice[] {
  if (isRecord(raw)) {
    return Object.keys(raw)
      .sort()
      .map((label) => ({ label, text: str(raw[label]) ?? "" }));
  }
  if (!Array.isArray(raw) || raw.length === 0) return invalidItem(at, "missing field 'choices'");
  return raw.map((c, i) => {
    const fallback = LETTERS[i] ?? String(i + 1);
    if (typeof c === "string") return { label: fallback, text: c };
    if (isRecord(c)) return { label: str(c.label) ?? fallback, text: str(c.text) ?? str(c.content) ?? "" };
    return invalidItem(at, `choice ${i} is neither a string nor an object`);
  });
}

function toCorrect(raw: unknown, choices: Choice[], at: RowOrigin): Choice {
  const label = isRecord(raw) ? str(raw.label) : str(raw);
  if (label === null || label.trim() === "") return invalidItem(at, "missing field 'correct_choice' (a label)");
  const found = choices.find((c) => c.label.toUpperCase() === label.trim().toUpperCase());
  if (found) return { ...found };
  const text = isRecord(raw) ? (str(raw.text) ?? str(raw.content)) : null;
  if (text === null) return invalidItem(at, `correct label '${label}' is not among the choices`);
  const added = { label: label.trim(), text };
  choices.push(added);
  return { ...added };
}

function toTypes(raw: unknown): string[] {
  if (typeof raw === "string") return raw.trim() === "" ? [] : [raw.trim()];
  if (!Array.isArray(raw)) return [];
  return raw
    .map(str)
    .filter((t): t is string => t !== null && t.trim() !== "")
    .map((t) => t.trim());
}

function monthOf(row: Record<string, unknown>, at: RowOrigin): string {
  const given = str(row.month);
  if (given !== null && given.trim() !== "") return given.trim();
  return /qa_(\d{6})/.exec(at.file)?.[1] ?? "unknown";
}

/** Normalises one raw row into a LiveMath item (the id is derived from month and number when absent). */
export function normaliseLiveMathRow(row: Record<string, unknown>, at: RowOrigin): Record<string, unknown> {
  const mcq = isRecord(row.mcq) ? row.mcq : row;
  const question = str(mcq.question ?? row.question);
  if (question === null || question.trim() === "") invalidItem(at, "missing field 'question'");
  const choices = toChoices(mcq.choices ?? row.choices, at);
  const correct = toCorrect(mcq.correct_choice ?? row.correct_choice, choices, at);
  const month = monthOf(row, at);
  const noRaw = row.no === undefined || row.no === null ? Number.NaN : Number(row.no);
  const no = Number.isFinite(noRaw) ? noRaw : at.index + 1;
  const rest = { ...row };
  delete rest.mcq;
  return {
    ...rest,
    id: row.id ?? `${month}:${no}`,
    month,
    no,
    question,
    choices,
    correct_choice: correct,
    theorem: str(row.theorem) ?? "",
    sketch: str(row.sketch) ?? "",
    theorem_type: toTypes(row.theorem_type),
  };
}

/** The first required field an item lacks at rollout time, or null when it is complete. */
export function missingLiveMathField(item: Item): "question" | "choices" | "correct_choice" | null {
  if (typeof item.question !== "string" || item.question.trim() === "") return "question";
  const choices = item.choices;
  const ok = (c: unknown) => isRecord(c) && typeof c.label === "string" && typeof c.text === "string";
  if (!Array.isArray(choices) || choices.length === 0 || !choices.every(ok)) return "choices";
  if (!ok(item.correct_choice)) return "correct_choice";
  return null;
}
