/** Helpers shared by the materialisers: the split manifest written next to the items, counts. */
import path from "node:path";
import { AppError } from "../../errors";
import { SPLITS, type Manifest, type SplitName } from "../manifest";
import { writeJson } from "../files";
import type { MaterializeContext } from "./types";

/** Per-split item counts of the manifest. */
export function manifestCounts(m: Manifest): Record<SplitName, number> {
  return { train: m.splits.train.length, val: m.splits.val.length, test: m.splits.test.length };
}

/** Writes `split_manifest.json` recording where the items came from. */
export function writeSplitManifest(ctx: MaterializeContext, itemFields: readonly string[], extra: Record<string, unknown> = {}): void {
  writeJson(path.join(ctx.stage, "split_manifest.json"), {
    source_manifest_dir: ctx.src.manifestDir,
    source_dataset: ctx.src.dataset?.repo ?? null,
    source_revision: ctx.src.dataset?.revision ?? null,
    counts: manifestCounts(ctx.manifest),
    item_fields: itemFields,
    ...extra,
  });
}

/** Writes `<split>/items.json` for every split. */
export function writeItemSplits(ctx: MaterializeContext, build: (split: SplitName) => unknown[]): void {
  for (const split of SPLITS) writeJson(path.join(ctx.stage, split, "items.json"), build(split));
}

/** Runs `fn`, re-throwing any error prefixed with the item it was about. */
export function aboutItem<T>(label: string, id: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new AppError("INVALID_REQUEST", `${label}: id '${id}': ${msg.replace(/^.*?: item \d+: /, "")}`, { cause: err });
  }
}
