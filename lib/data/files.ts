/**
 * Dataset files and the on-disk formats of a materialised split folder: resolving a source's file list
 * (fixed paths, or an HF tree listing), CSV read/write, and JSON writing (UTF-8, indent 2).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse as parseCsvText } from "csv-parse/sync";
import { AppError } from "../errors";
import type { Downloader } from "./http";
import { keyOf, type RowIndex } from "./match";
import { readParquetKeyed, readParquetRows } from "./parquet";
import { datasetFileUrl, datasetTreeUrl, type DataSource } from "./sources";

/** The dataset file paths of `src` (listing a folder through the HF tree API when needed). */
export async function listDatasetFiles(dl: Downloader, src: DataSource): Promise<string[]> {
  const ds = src.dataset;
  if (!ds) return [];
  if (ds.files.kind === "files") return [...ds.files.paths];
  const url = datasetTreeUrl(ds.repo, ds.revision, ds.files.dir);
  const listing = await dl.json(url);
  if (!Array.isArray(listing)) throw new AppError("INVALID_REQUEST", `${dl.resolve(url)}: expected a JSON array (HF tree listing)`);
  const { match } = ds.files;
  const paths = listing
    .filter((e): e is { type?: unknown; path: string } => typeof e === "object" && e !== null && typeof (e as { path?: unknown }).path === "string")
    .filter((e) => e.type === undefined || e.type === "file")
    .map((e) => e.path)
    .filter((p) => match.test(path.posix.basename(p)))
    .sort();
  if (paths.length === 0) throw new AppError("NOT_FOUND", `no file matching ${match} in ${dl.resolve(url)}`);
  return paths;
}

/** Downloads one dataset file of `src`. */
export function fetchDatasetFile(dl: Downloader, src: DataSource, file: string): Promise<Uint8Array> {
  const ds = src.dataset;
  if (!ds) throw new AppError("INTERNAL", `${src.benchmark} has no dataset files`);
  return dl.bytes(datasetFileUrl(ds.repo, ds.revision, file));
}

/** A CSV text with a header row, as string records. */
export function parseCsv(text: string, where: string): Record<string, string>[] {
  try {
    return parseCsvText(text, { columns: (h: string[]) => h.map((c) => c.trim()), skip_empty_lines: true, bom: true }) as Record<string, string>[];
  } catch (err) {
    throw new AppError("INVALID_REQUEST", `${where}: not valid CSV (${err instanceof Error ? err.message : String(err)})`);
  }
}

function csvCell(value: unknown): string {
  const text = value === undefined || value === null ? "" : typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 CSV with the given columns (objects/arrays as JSON). */
export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const lines = [columns.map(csvCell).join(","), ...rows.map((r) => columns.map((c) => csvCell(r[c])).join(","))];
  return `${lines.join("\r\n")}\r\n`;
}

/** Writes a file, creating its folder. */
export function writeOut(file: string, content: string | Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** Writes JSON as UTF-8 with indent 2 and a trailing newline. */
export function writeJson(file: string, value: unknown): void {
  writeOut(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Rows of a downloaded table by file type: parquet, JSON (array, `{data:[…]}`), JSONL or CSV. */
export async function readTableRows(data: Uint8Array, file: string): Promise<Record<string, unknown>[]> {
  const lower = file.toLowerCase();
  if (lower.endsWith(".parquet")) return readParquetRows(data, file);
  const text = new TextDecoder("utf-8").decode(data).replace(/^\uFEFF/, "");
  if (lower.endsWith(".csv")) return parseCsv(text, file);
  if (lower.endsWith(".jsonl")) {
    return text.split(/\r?\n/).filter((l) => l.trim() !== "").map((l, i) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new AppError("INVALID_REQUEST", `${file}: line ${i + 1} is not valid JSON`);
      }
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new AppError("INVALID_REQUEST", `${file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const rows = Array.isArray(parsed) ? parsed : (parsed as { data?: unknown })?.data;
  if (!Array.isArray(rows)) throw new AppError("INVALID_REQUEST", `${file}: expected a JSON array of rows`);
  return rows as Record<string, unknown>[];
}

/**
 * Offers every row of a downloaded table to `index`, keyed by `keyColumn` (parquet: only the wanted
 * rows are decoded in full). Returns the number of rows scanned.
 */
export async function scanTable(
  data: Uint8Array,
  file: string,
  keyColumn: string,
  index: RowIndex<Record<string, unknown>>,
): Promise<number> {
  if (file.toLowerCase().endsWith(".parquet")) {
    const { keys, rows } = await readParquetKeyed(data, { keyColumn, wants: (k) => index.wants(keyOf(k)), where: file });
    keys.forEach((k, i) => index.offer(keyOf(k), rows.get(i) ?? {}, `${file} row ${i + 1}`));
    return keys.length;
  }
  const rows = await readTableRows(data, file);
  rows.forEach((row, i) => index.offer(keyOf(row?.[keyColumn]), row, `${file} row ${i + 1}`));
  return rows.length;
}
