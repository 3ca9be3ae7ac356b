/**
 * Reading and validating item files for the split loader. Every problem is ONE line that names the file
 * and, for item problems, the 0-based item index, raised as `AppError("INVALID_REQUEST", …, {field: file})`.
 */
import { readFileSync } from "node:fs";
import { parse as parseCsvText } from "csv-parse/sync";
import { AppError } from "../../errors";
import type { Item } from "../../engine/types";

/** Where a row came from, for error messages. */
export interface RowOrigin {
  file: string;
  index: number;
}

/**
 * A benchmark's row normaliser: maps a raw object (already known to be an object) to the benchmark's
 * item shape, or throws an `AppError` via `invalidItem`. It may derive the `id`.
 */
export type RowNormaliser = (row: Record<string, unknown>, at: RowOrigin) => Record<string, unknown>;

/** Throws the loader's one-line error about a file. */
export function invalidFile(file: string, problem: string): never {
  throw new AppError("INVALID_REQUEST", `${file}: ${problem}`, { field: file });
}

/** Throws the loader's one-line error about one item of a file. */
export function invalidItem(at: RowOrigin, problem: string): never {
  throw new AppError("INVALID_REQUEST", `${at.file}: item ${at.index}: ${problem}`, { field: at.file });
}

/** True for a non-null, non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  } catch (err) {
    return invalidFile(file, `cannot read file (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** One JSON value per non-blank line; a line that is not JSON is an error naming the 1-based line. */
export function parseJsonl(text: string, file: string): unknown[] {
  const rows: unknown[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      rows.push(JSON.parse(line));
    } catch {
      invalidFile(file, `line ${i + 1} is not valid JSON`);
    }
  });
  return rows;
}

/**
 * A CSV file with a header row: one object per data row, keyed by the (trimmed) header names; values stay
 * strings. A row with the wrong number of cells or an unclosed quote is an error naming the 1-based line.
 */
export function parseCsv(text: string, file: string): Record<string, string>[] {
  try {
    return parseCsvText(text, {
      columns: (header: string[]) => header.map((h) => h.trim()),
      skip_empty_lines: true,
      bom: true,
      relax_column_count: false,
    }) as Record<string, string>[];
  } catch (err) {
    const e = err as { lines?: number; message?: string };
    const where = typeof e.lines === "number" ? `line ${e.lines}: ` : "";
    return invalidFile(
      file,
      `not valid CSV (${where}${(e.message ?? String(err)).replace(/^Invalid Record Length: /, "")})`,
    );
  }
}

/** A split file: `.jsonl` is read line by line; `.csv` needs a header row; `.json` must hold a JSON array. */
export function readSplitFile(file: string): unknown[] {
  const text = readText(file);
  if (file.toLowerCase().endsWith(".jsonl")) return parseJsonl(text, file);
  if (file.toLowerCase().endsWith(".csv")) return parseCsv(text, file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return invalidFile(file, `not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!Array.isArray(parsed)) return invalidFile(file, "expected a JSON array of items");
  return parsed;
}

/**
 * A raw data file for ratio splits: a JSON array, `{data: [...]}` or an object whose values are the
 * items; otherwise (or always, for `.jsonl`) one object per non-blank line.
 */
export function readRawDataFile(file: string): unknown[] {
  const text = readText(file);
  if (file.toLowerCase().endsWith(".jsonl")) return parseJsonl(text, file);
  if (file.toLowerCase().endsWith(".csv")) return parseCsv(text, file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return parseJsonl(text, file);
  }
  if (Array.isArray(parsed)) return parsed;
  if (isRecord(parsed)) return Array.isArray(parsed.data) ? parsed.data : Object.values(parsed);
  return parseJsonl(text, file);
}

/**
 * Validates rows into items: each must be an object; the optional normaliser runs; the `id` must be a
 * non-empty string or a finite number (numbers become strings); ids must be unique within the file.
 */
export function toItems(rows: readonly unknown[], file: string, normalise?: RowNormaliser): Item[] {
  const seen = new Map<string, number>();
  return rows.map((raw, index) => {
    const at = { file, index };
    if (!isRecord(raw)) return invalidItem(at, "is not a JSON object");
    const row = normalise ? normalise(raw, at) : raw;
    const id = itemId(row.id);
    if (id === null) return invalidItem(at, "has no 'id' (a non-empty string or a number)");
    const first = seen.get(id);
    if (first !== undefined) return invalidItem(at, `duplicate id '${id}' (first seen at item ${first})`);
    seen.set(id, index);
    return { ...row, id };
  });
}

function itemId(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string" && value.trim() !== "") return value;
  return null;
}
