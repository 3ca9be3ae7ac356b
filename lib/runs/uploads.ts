/**
 * Dataset uploads for the custom benchmark (`POST /api/uploads`): a .jsonl or .csv file of at most
 * 20 MB, checked to parse into rows, stored content-addressed under `.skillopt/uploads/<sha256>.<ext>`
 * (the same bytes always land on the same path, so a run's env.data_path names exactly what it read),
 * and described so the form can offer its columns for the field mapping.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_UPLOAD_BYTES, UPLOAD_FILE_TYPES, type UploadInfo } from "../contracts/api";
import { parseCsv, parseJsonl } from "../envs";
import { AppError } from "../errors";
import { findTooDeep, limitText, MAX_JSON_DEPTH, readCapped, sizeText } from "../http/body";

/** Where uploads are stored, relative to the project root. */
export const UPLOADS_DIR = ".skillopt/uploads";
const PREVIEW_ROWS = 5;
const PREVIEW_CHARS = 300;
/** Room for the multipart envelope around the file. */
export const ENVELOPE_BYTES = 64 * 1024;

const GUESSES = {
  id_field: ["id", "uid", "qid", "item_id", "key"],
  question_field: ["question", "prompt", "query", "input", "q"],
  answer_field: ["answer", "answers", "gold", "ground_truth", "target", "expected", "output", "label", "a"],
  context_field: ["context", "passage", "document", "text", "ctx"],
} as const;

const bad = (message: string) => new AppError("INVALID_REQUEST", message, { field: "file" });
const tooLarge = (message: string) => new AppError("PAYLOAD_TOO_LARGE", message, { field: "file" });

/**
 * Reads the multipart body of an upload request and stores its `file`. The body is read with a cap
 * (next.config.mjs lets a little more than this through the proxy), so an oversized upload is a 413
 * whether or not it declared its length.
 */
export async function uploadDataset(req: Request, rootDir: string): Promise<UploadInfo> {
  const body = await readCapped(req, MAX_UPLOAD_BYTES + ENVELOPE_BYTES);
  if (!body.ok) {
    const limit = limitText(MAX_UPLOAD_BYTES);
    throw tooLarge(
      body.size === null
        ? `file: the upload is over the ${limit} limit`
        : `file: the upload is ${sizeText(body.size, MAX_UPLOAD_BYTES)}; the limit is ${limit}`,
    );
  }
  let form: FormData;
  try {
    form = await new Response(body.bytes, {
      headers: { "content-type": req.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    throw bad("file: expected a multipart/form-data body with a 'file' field");
  }
  const file = form.get("file");
  if (!(file instanceof Blob)) throw bad("file: no file in the 'file' field");
  const fileName =
    typeof (file as File).name === "string" && (file as File).name !== "" ? (file as File).name : "upload";
  return storeDataset({ bytes: new Uint8Array(await file.arrayBuffer()), fileName, rootDir });
}

/** Validates and stores one data file; errors name the user's file name and the line or item. */
export function storeDataset(opts: { bytes: Uint8Array; fileName: string; rootDir: string }): UploadInfo {
  const { bytes, fileName } = opts;
  const format = UPLOAD_FILE_TYPES.find((t) => fileName.toLowerCase().endsWith(`.${t}`));
  if (!format) throw bad(`file: '${fileName}' is not a .jsonl or .csv file`);
  if (bytes.byteLength > MAX_UPLOAD_BYTES) {
    throw tooLarge(
      `file: '${fileName}' is ${sizeText(bytes.byteLength, MAX_UPLOAD_BYTES)}; the limit is ${limitText(MAX_UPLOAD_BYTES)}`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    throw bad(`file: '${fileName}' is not UTF-8 text`);
  }
  const rows = parseRows(text, format, fileName);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const rel = `${UPLOADS_DIR}/${sha256}.${format}`;
  const abs = join(opts.rootDir, rel);
  if (!existsSync(abs)) {
    mkdirSync(join(opts.rootDir, UPLOADS_DIR), { recursive: true });
    writeFileSync(abs, bytes);
  }
  const columns = columnsOf(rows);
  return {
    path: rel,
    sha256,
    fileName,
    format,
    bytes: bytes.byteLength,
    rows: rows.length,
    columns,
    preview: rows.slice(0, PREVIEW_ROWS).map(previewRow),
    suggested: suggestMapping(columns),
  };
}

function parseRows(text: string, format: UploadInfo["format"], fileName: string): Array<Record<string, unknown>> {
  let rows: unknown[];
  try {
    rows = format === "csv" ? parseCsv(text, fileName) : parseJsonl(text, fileName);
  } catch (err) {
    throw bad(`file: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (rows.length === 0) throw bad(`file: '${fileName}' has no rows`);
  const index = rows.findIndex((r) => typeof r !== "object" || r === null || Array.isArray(r));
  if (index >= 0) throw bad(`file: ${fileName}: item ${index} is not a JSON object`);
  if (format === "jsonl") checkDepth(rows, text, fileName);
  return rows as Array<Record<string, unknown>>;
}

/** Deeply nested rows are refused before anything is stored: previews and loaders walk them recursively. */
function checkDepth(rows: unknown[], text: string, fileName: string): void {
  // parseJsonl skips blank lines, so the n-th row sits on the n-th non-blank line.
  const lines: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() !== "") lines.push(i + 1);
  });
  for (let i = 0; i < rows.length; i++) {
    const deep = findTooDeep(rows[i], MAX_JSON_DEPTH);
    if (deep)
      throw bad(
        `file: ${fileName}: line ${lines[i]} nests deeper than ${MAX_JSON_DEPTH} levels (under '${deep.join(".")}')`,
      );
  }
}

function columnsOf(rows: ReadonlyArray<Record<string, unknown>>): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

function previewRow(row: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(row)) {
    const s = typeof v === "string" ? v : JSON.stringify(v);
    out[k] = s.length > PREVIEW_CHARS ? `${s.slice(0, PREVIEW_CHARS)}…` : s;
  }
  return out;
}

/** The likely column for each role, by common names (case-insensitive); "" when none fits. */
export function suggestMapping(columns: readonly string[]): UploadInfo["suggested"] {
  const pick = (names: readonly string[], taken: string[]) =>
    names.map((n) => columns.find((c) => c.toLowerCase() === n && !taken.includes(c))).find((c) => c !== undefined) ??
    "";
  const taken: string[] = [];
  const out = {} as UploadInfo["suggested"];
  for (const key of ["question_field", "answer_field", "id_field", "context_field"] as const) {
    out[key] = pick(GUESSES[key], taken);
    if (out[key] !== "") taken.push(out[key]);
  }
  return out;
}
