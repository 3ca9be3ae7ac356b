/**
 * The original's released split manifests (spec §A.4): `split_manifest.json` plus `train|val|test/
 * items.json`, each item an object with at least an `id`. Ids must be unique across all three splits.
 */
import { AppError } from "../errors";
import type { Downloader } from "./http";
import { manifestUrl, type DataSource } from "./sources";

export const SPLITS = ["train", "val", "test"] as const;
export type SplitName = (typeof SPLITS)[number];

/** One manifest item; `id` is always a string here. */
export type ManifestItem = Record<string, unknown> & { id: string };

/** A downloaded manifest. */
export interface Manifest {
  /** The parsed `split_manifest.json` (kept for provenance). */
  meta: Record<string, unknown>;
  splits: Record<SplitName, ManifestItem[]>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function toId(v: unknown): string | null {
  if (typeof v === "string" && v.trim() !== "") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

/** Validates one split's items; `where` names the URL in errors. */
export function parseManifestItems(raw: unknown, where: string): ManifestItem[] {
  if (!Array.isArray(raw)) throw new AppError("INVALID_REQUEST", `${where}: expected a JSON array of items`);
  return raw.map((item, i) => {
    if (!isRecord(item)) throw new AppError("INVALID_REQUEST", `${where}: item ${i} is not an object`);
    const id = toId(item.id);
    if (id === null) throw new AppError("INVALID_REQUEST", `${where}: item ${i} has no 'id'`);
    return { ...item, id };
  });
}

/** Throws when an id appears twice, within a split or across splits (naming both places). */
export function checkUniqueIds(splits: Record<SplitName, ManifestItem[]>): void {
  const seen = new Map<string, SplitName>();
  for (const name of SPLITS) {
    for (const item of splits[name]) {
      const first = seen.get(item.id);
      if (first !== undefined) {
        const where = first === name ? `twice in ${name}` : `in both ${first} and ${name}`;
        throw new AppError("INVALID_REQUEST", `manifest id '${item.id}' is duplicated (${where}); a split manifest must list each id once`);
      }
      seen.set(item.id, name);
    }
  }
}

/** Downloads and validates the manifest of `src`. */
export async function fetchManifest(dl: Downloader, src: DataSource): Promise<Manifest> {
  const metaUrl = manifestUrl(src, "split_manifest.json");
  const meta = await dl.json(metaUrl);
  if (!isRecord(meta)) throw new AppError("INVALID_REQUEST", `${dl.resolve(metaUrl)}: expected a JSON object`);
  const splits = {} as Record<SplitName, ManifestItem[]>;
  for (const name of SPLITS) {
    const url = manifestUrl(src, `${name}/items.json`);
    splits[name] = parseManifestItems(await dl.json(url), dl.resolve(url));
  }
  checkUniqueIds(splits);
  return { meta, splits };
}

/** Every manifest id, in split then file order. */
export function allIds(m: Manifest): string[] {
  return SPLITS.flatMap((s) => m.splits[s].map((i) => i.id));
}
