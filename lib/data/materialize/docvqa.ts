/**
 * DocVQA (spec §A.4, §A.6): rows of the lmms-lab/DocVQA validation parquet matched by `questionId`; the
 * page image bytes are written to `<out>/images/`, and each split becomes `<split>/<split>.csv` with the
 * columns the DocVQA loader reads. `image_path` is relative to the project root when the output folder
 * is inside it (absolute otherwise), so the preset finds the images wherever `--out` put them.
 */
import path from "node:path";
import { AppError } from "../../errors";
import { fetchDatasetFile, listDatasetFiles, scanTable, toCsv, writeOut } from "../files";
import { SPLITS } from "../manifest";
import { keyOf, requireFields, RowIndex } from "../match";
import { coerceAnswers } from "./searchqa";
import { manifestCounts, writeSplitManifest } from "./common";
import type { Materializer } from "./types";

export const DOCVQA_COLUMNS = [
  "questionId", "question", "answer", "image_path", "topic", "docId", "ucsf_document_id", "ucsf_document_page_no", "source_split",
] as const;

/** The image bytes of a parquet `image` cell (`{bytes, path}` struct or raw bytes). */
function imageBytes(cell: unknown): Uint8Array | null {
  if (cell instanceof Uint8Array) return cell;
  const bytes = (cell as { bytes?: unknown } | null)?.bytes;
  return bytes instanceof Uint8Array ? bytes : null;
}

/** File extension by magic number (PNG, JPEG, TIFF, WebP, GIF), or null. */
export function imageExtension(b: Uint8Array): string | null {
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return ".png";
  if (b[0] === 0xff && b[1] === 0xd8) return ".jpg";
  if ((b[0] === 0x49 && b[1] === 0x49) || (b[0] === 0x4d && b[1] === 0x4d)) return ".tif";
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return ".gif";
  if (b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50) return ".webp";
  return null;
}

function imageName(m: Record<string, unknown>, row: Record<string, unknown>, ext: string): string {
  const given = typeof m.image_path === "string" && m.image_path.trim() !== "" ? path.posix.basename(m.image_path) : "";
  const stem = given ? given.replace(/\.[^.]+$/, "") : `q${String(m.id)}_d${String(m.docId ?? row.docId ?? "x")}`;
  return `${stem.replace(/[^\w.-]/g, "_")}${ext}`;
}

export const materializeDocVqa: Materializer = async (ctx) => {
  const label = ctx.src.dataset!.repo;
  const keyFor = (m: Record<string, unknown>) => keyOf(m.questionId) ?? keyOf(m.id);
  const wanted = new Map<string, string>();
  for (const s of SPLITS) for (const m of ctx.manifest.splits[s]) wanted.set(keyFor(m) ?? m.id, m.id);
  const index = new RowIndex<Record<string, unknown>>(wanted, label);
  for (const file of await listDatasetFiles(ctx.dl, ctx.src)) {
    const n = await scanTable(await fetchDatasetFile(ctx.dl, ctx.src, file), file, "questionId", index);
    ctx.log(`${file}: ${n} rows scanned, ${index.size} ids matched so far`);
  }
  index.requireAll();
  const relBase = path.relative(ctx.rootDir, ctx.finalOut);
  const inRoot = relBase !== "" && !relBase.startsWith("..") && !path.isAbsolute(relBase);
  for (const split of SPLITS) {
    const rows = ctx.manifest.splits[split].map((m) => {
      const row = index.get(keyFor(m) ?? m.id);
      requireFields(m.id, row, ["question", "answers"], label);
      const bytes = imageBytes(row.image);
      if (!bytes || bytes.length === 0) throw new AppError("INVALID_REQUEST", `${label}: id '${m.id}' lacks required field 'image'`);
      const name = imageName(m, row, imageExtension(bytes) ?? ".png");
      writeOut(path.join(ctx.stage, "images", name), bytes);
      const types = coerceAnswers(row.question_types);
      return {
        questionId: keyOf(row.questionId),
        question: row.question,
        answer: JSON.stringify(coerceAnswers(row.answers)),
        image_path: inRoot ? path.posix.join(relBase.split(path.sep).join("/"), "images", name) : path.join(ctx.finalOut, "images", name),
        topic: m.topic ?? (types.length ? types.join("|") : "docvqa"),
        docId: m.docId ?? row.docId ?? "",
        ucsf_document_id: m.ucsf_document_id ?? row.ucsf_document_id ?? "",
        ucsf_document_page_no: m.ucsf_document_page_no ?? row.ucsf_document_page_no ?? "",
        source_split: m.source_split ?? "validation",
      };
    });
    writeOut(path.join(ctx.stage, split, `${split}.csv`), toCsv(DOCVQA_COLUMNS, rows));
  }
  writeSplitManifest(ctx, DOCVQA_COLUMNS, { images_dir: "images" });
  return { counts: manifestCounts(ctx.manifest), notes: [] };
};
