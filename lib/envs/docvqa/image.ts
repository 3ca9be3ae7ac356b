/**
 * Finding and reading an item's document image. A relative path is tried, in order, against the folder
 * of the file the item came from (`source_dir`), the split_dir, and the project root; the first existing
 * file wins. The built-in sample's items carry paths relative to the project root. Item paths are data
 * (an upload is anyone's content): for a dashboard run each candidate must pass the run's path guard.
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { PathGuard } from "../common/path-guard";

/** Where relative image paths may live, most specific first. */
export interface ImageRoots {
  sourceDir?: string;
  splitDir?: string;
  rootDir: string;
  /** The run's path guard; candidates it refuses are never opened. */
  paths?: PathGuard;
}

/** Images above this size are refused (providers reject them, and they would bloat every request). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

const MEDIA_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".bmp": "image/bmp",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
};

/** MIME type by file extension; unknown extensions are sent as PNG (as the original does). */
export function mediaTypeOf(file: string): string {
  return MEDIA_TYPES[path.extname(file).toLowerCase()] ?? "image/png";
}

/** The candidate absolute paths for `raw`, in the order they are tried. */
export function imageCandidates(raw: string, roots: ImageRoots): string[] {
  if (path.isAbsolute(raw)) return [raw];
  const bases = [roots.sourceDir, roots.splitDir, roots.rootDir].filter(
    (b): b is string => b !== undefined && b !== "",
  );
  return [...new Set(bases.map((b) => path.resolve(roots.rootDir, b, raw)))];
}

/** A readable image, or why there is none (one line naming the file). */
export type ImageOutcome =
  { ok: true; file: string; mediaType: string; dataBase64: string; bytes: number } | { ok: false; reason: string };

async function statOrNull(file: string): Promise<Awaited<ReturnType<typeof stat>> | null> {
  try {
    return await stat(file);
  } catch {
    return null;
  }
}

/** The candidates the run may read (real paths for a confined guard), or the refusal when there is none. */
function permitted(raw: string, roots: ImageRoots): string[] | { reason: string } {
  const all = imageCandidates(raw, roots);
  if (!roots.paths) return all;
  const checks = all.map((c) => roots.paths!.check("image_path", c));
  const ok = checks.flatMap((c) => (c.ok ? [c.path] : []));
  return ok.length > 0 ? ok : { reason: `document image '${raw}' is outside the folders the dashboard may read` };
}

/** Resolves and reads `raw` (asynchronously, so parallel rollouts do not block each other); never throws. */
export async function readDocumentImage(raw: string, roots: ImageRoots): Promise<ImageOutcome> {
  const candidates = permitted(raw, roots);
  if (!Array.isArray(candidates)) return { ok: false, reason: candidates.reason };
  for (const file of candidates) {
    const info = await statOrNull(file);
    if (info === null) continue;
    if (!info.isFile()) return { ok: false, reason: `document image ${file} is not a file` };
    if (info.size === 0) return { ok: false, reason: `document image ${file} is empty` };
    if (info.size > MAX_IMAGE_BYTES)
      return { ok: false, reason: `document image ${file} is too large (${info.size} bytes)` };
    try {
      const data = await readFile(file);
      return { ok: true, file, mediaType: mediaTypeOf(file), dataBase64: data.toString("base64"), bytes: data.length };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
      return { ok: false, reason: `cannot read document image ${file} (${code})` };
    }
  }
  return { ok: false, reason: `document image '${raw}' not found (looked in ${candidates.join(", ")})` };
}
