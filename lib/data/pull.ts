/**
 * `data pull`: download a benchmark's manifest and dataset files and materialise its `split_dir`.
 * Everything is written into a hidden staging folder next to the target and renamed into place only
 * when the whole pull succeeded, so a failed pull leaves nothing half-written; an existing target is
 * kept unless `force` is set (and then replaced only after the new one is complete).
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { AppError } from "../errors";
import { createDownloader, type DownloaderOptions } from "./http";
import { fetchManifest } from "./manifest";
import { materializeAlfworld } from "./materialize/alfworld";
import { materializeDocVqa } from "./materialize/docvqa";
import { materializeLiveMath } from "./materialize/livemath";
import { materializeOfficeQa } from "./materialize/officeqa";
import { materializeSearchQa } from "./materialize/searchqa";
import { materializeSpreadsheetBench } from "./materialize/spreadsheetbench";
import type { MaterializeResult, Materializer } from "./materialize/types";
import { DATA_BENCHMARKS, findDataSource, manifestUrl, type DataBenchmark } from "./sources";

const MATERIALIZERS: Record<DataBenchmark, Materializer> = {
  searchqa: materializeSearchQa,
  livemath: materializeLiveMath,
  officeqa: materializeOfficeQa,
  docvqa: materializeDocVqa,
  spreadsheetbench: materializeSpreadsheetBench,
  alfworld: materializeAlfworld,
};

/** Options of `pullBenchmark`. */
export interface PullOptions extends Omit<DownloaderOptions, "mirror"> {
  benchmark: string;
  /** Output folder (default: the preset's split_dir), relative to `rootDir`. */
  out?: string;
  rootDir: string;
  mirror?: string;
  force?: boolean;
  log?: (line: string) => void;
}

/** What a pull produced. */
export interface PullResult extends MaterializeResult {
  benchmark: DataBenchmark;
  out: string;
}

/** Runs one pull; throws a one-line AppError on any failure (and leaves the target untouched). */
export async function pullBenchmark(opts: PullOptions): Promise<PullResult> {
  const src = findDataSource(opts.benchmark);
  if (!src) {
    throw new AppError("INVALID_REQUEST", `unknown benchmark '${opts.benchmark}'; known: ${DATA_BENCHMARKS.join(", ")}`, { field: "benchmark" });
  }
  const out = path.resolve(opts.rootDir, opts.out ?? src.defaultOut);
  if (existsSync(out) && !opts.force) {
    throw new AppError("CONFLICT", `${out} already exists; pass --force to replace it`, { field: "--out" });
  }
  const log = opts.log ?? (() => undefined);
  const dl = createDownloader({ ...opts, mirror: opts.mirror });
  mkdirSync(path.dirname(out), { recursive: true });
  const stage = mkdtempSync(path.join(path.dirname(out), `.${path.basename(out)}.partial-`));
  try {
    log(`manifest: ${dl.resolve(manifestUrl(src, ""))}`);
    const manifest = await fetchManifest(dl, src);
    const result = await MATERIALIZERS[src.benchmark]({ src, manifest, dl, stage, finalOut: out, rootDir: opts.rootDir, log });
    replaceDir(stage, out);
    return { ...result, benchmark: src.benchmark, out };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Moves `stage` to `out`; an existing `out` is set aside first and removed only after the move. */
function replaceDir(stage: string, out: string): void {
  if (!existsSync(out)) {
    renameSync(stage, out);
    return;
  }
  const old = `${stage}.old`;
  renameSync(out, old);
  try {
    renameSync(stage, out);
  } catch (err) {
    renameSync(old, out);
    throw err;
  }
  rmSync(old, { recursive: true, force: true });
}
