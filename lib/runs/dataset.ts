/**
 * The data a run trains on, as hashes a user can compare: the data file's sha256 and each split's
 * ordered ids (see lib/envs/common/fingerprint.ts). Shown in the pre-flight estimate and on the run page.
 */
import type { DatasetFingerprint } from "../contracts/api";
import type { RunConfig } from "../contracts/run-config";
import { getRun, runConfigOf } from "../db/runs";
import type { Splits } from "../engine/types";
import { fingerprintSplits, loadBenchmarkSplits, type PathGuard } from "../envs";
import { pathGuardFor } from "./trust";

export function datasetFingerprint(
  config: RunConfig,
  splits: Splits,
  rootDir: string,
  paths?: PathGuard,
): DatasetFingerprint {
  return fingerprintSplits(config, splits, rootDir, paths);
}

// Runs never change their data (uploads are content-addressed), so one computation per run is enough.
const cache = new Map<string, DatasetFingerprint>();
const CACHE_SIZE = 100;

/** The fingerprint of a stored run's data, loaded again from its config (errors name the file or field). */
export async function getRunDataset(id: string, rootDir: string): Promise<DatasetFingerprint> {
  const hit = cache.get(id);
  if (hit) return hit;
  const config = runConfigOf(await getRun(id));
  // The stored config came through the API: its files are read only inside the allowed roots.
  const paths = pathGuardFor("request", rootDir, process.env);
  const fp = fingerprintSplits(config, loadBenchmarkSplits(config, rootDir, paths), rootDir, paths);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(id, fp);
  return fp;
}
