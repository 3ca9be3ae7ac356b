/**
 * Short content hashes that let a user check two runs trained on the same data: the sha256 of the data
 * file of a ratio split, and of each split's ordered item ids (joined by newlines). Shown by the CLI
 * before training, in the dashboard's pre-flight estimate and on the run page.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { DatasetFingerprint } from "../../contracts/api";
import type { RunConfig } from "../../contracts/run-config";
import type { Item, Splits } from "../../engine/types";
import { resolveDataFile, SPLIT_NAMES } from "../loader";
import type { PathGuard } from "./path-guard";

/** Digits of a sha256 shown to users. */
export const SHORT_HASH = 12;

export function shortSha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex").slice(0, SHORT_HASH);
}

/** The hash of a split: its ordered ids, one per line. */
export function splitIdsHash(items: readonly Item[]): string {
  return shortSha256(items.map((i) => i.id).join("\n"));
}

/**
 * Hashes of the loaded splits and, for a ratio split, of its data file (paths relative to `rootDir` when
 * inside it); `paths` is the run's guard, so a dashboard run's data file is checked like when it was loaded.
 */
export function fingerprintSplits(
  config: RunConfig,
  splits: Splits,
  rootDir: string,
  paths?: PathGuard,
): DatasetFingerprint {
  const mode = config.env.split_mode;
  let dataPath: string | null = null;
  let dataSha256: string | null = null;
  if (mode === "ratio") {
    const file = resolveDataFile(rootDir, config.env.data_path, paths);
    const rel = path.relative(rootDir, file);
    dataPath = rel.startsWith("..") || path.isAbsolute(rel) ? file : rel.split(path.sep).join("/");
    dataSha256 = shortSha256(readFileSync(file));
  }
  const out = {} as DatasetFingerprint["splits"];
  for (const name of SPLIT_NAMES) out[name] = { count: splits[name].length, sha256: splitIdsHash(splits[name]) };
  return { splitMode: mode, dataPath, dataSha256, splits: out };
}

/** Two lines for a terminal: the data file and the splits. */
export function describeFingerprint(fp: DatasetFingerprint): string {
  const s = fp.splits;
  const lines: string[] = [];
  if (fp.dataPath !== null) lines.push(`data: ${fp.dataPath} (sha256 ${fp.dataSha256})`);
  lines.push(
    `splits (${fp.splitMode}): train ${s.train.count} [${s.train.sha256}] · selection ${s.val.count} [${s.val.sha256}] · test ${s.test.count} [${s.test.sha256}]`,
  );
  return lines.join("\n");
}
