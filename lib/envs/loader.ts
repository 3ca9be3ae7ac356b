/**
 * The split loader (spec engine §3.2, envs §A.2): the benchmark's built-in offline sample, a
 * materialised `split_dir` (`train/`, `val/`, `test/`), or a seeded ratio split of one data file that
 * is written out with a manifest so the same split can be reused as a `split_dir`. The ratio shuffle is
 * CPython's `random.Random(seed).shuffle`, so a split made by the Python SkillOpt is reproduced exactly.
 * Loading writes nothing; `writeRatioSplit` materialises a ratio split once the caller has accepted the
 * run. Every path goes through the run's `PathGuard` (confined to the allowed roots for dashboard runs).
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { RunConfig } from "../contracts/run-config";
import { pyShuffled } from "../engine/py-random";
import { largestRemainderCounts } from "../engine/split-plan";
import type { Item, Splits } from "../engine/types";
import { AppError } from "../errors";
import { localPathGuard, type PathGuard } from "./common/path-guard";
import { invalidFile, readRawDataFile, readSplitFile, toItems, type RowNormaliser } from "./common/read-items";

export type { RowNormaliser } from "./common/read-items";

/** The three canonical split names, in slicing order. */
export const SPLIT_NAMES = ["train", "val", "test"] as const;
type SplitName = (typeof SPLIT_NAMES)[number];

/** Options of `loadSplits`. */
export interface LoadSplitsOptions {
  config: RunConfig;
  /** Relative paths in the config resolve against this folder. */
  rootDir: string;
  /** The benchmark's built-in offline sample (required for `split_mode: sample`). */
  sample?: () => Splits;
  /** The benchmark's row normaliser/validator, applied to every row before the id checks. */
  normalise?: RowNormaliser;
  /**
   * Which file of a split folder holds the items, by extension in order of preference (default
   * `["json", "jsonl"]`; DocVQA reads `["csv"]`, OfficeQA `["csv", "json"]`).
   */
  splitFileTypes?: readonly string[];
  /** How config paths resolve (default: the CLI's, any path relative to `rootDir`). */
  paths?: PathGuard;
}

const guardOf = (opts: LoadSplitsOptions) => opts.paths ?? localPathGuard(opts.rootDir);

/** Loads train/val/test for `config.env.split_mode`, validates every item and applies `env.limit`. */
export function loadSplits(opts: LoadSplitsOptions): Splits {
  const mode = opts.config.env.split_mode;
  const loaded = mode === "sample" ? fromSample(opts) : mode === "split_dir" ? fromSplitDir(opts) : fromRatio(opts);
  const limit = opts.config.env.limit;
  if (limit <= 0) return loaded;
  return { train: loaded.train.slice(0, limit), val: loaded.val.slice(0, limit), test: loaded.test.slice(0, limit) };
}

function requireNonEmpty(name: SplitName, items: Item[], where: string): Item[] {
  if (items.length === 0)
    throw new AppError("INVALID_REQUEST", `split '${name}' is empty (${where})`, { field: where });
  return items;
}

function fromSample(opts: LoadSplitsOptions): Splits {
  if (!opts.sample) {
    const name = opts.config.env.name || "(unnamed)";
    throw new AppError("INVALID_REQUEST", `benchmark '${name}' has no built-in sample; use split_dir or ratio`, {
      field: "env.split_mode",
    });
  }
  const sample = opts.sample();
  const out = {} as Splits;
  for (const name of SPLIT_NAMES) {
    const where = `sample/${name}`;
    out[name] = requireNonEmpty(name, toItems(sample[name], where, opts.normalise), where);
  }
  return out;
}

function fromSplitDir(opts: LoadSplitsOptions): Splits {
  const configured = opts.config.env.split_dir.trim();
  if (configured === "") {
    throw new AppError("INVALID_REQUEST", "env.split_dir is required when env.split_mode is split_dir", {
      field: "env.split_dir",
    });
  }
  const paths = guardOf(opts);
  const root = paths.input("env.split_dir", configured);
  const out = {} as Splits;
  for (const name of SPLIT_NAMES) {
    const folder = path.join(root, name);
    if (!isDirectory(folder)) invalidFile(folder, `missing split folder '${name}/' in ${root}`);
    // Checked again: a split folder or file inside the root may be a symlink that leads out of it.
    const file = paths.input("env.split_dir", firstItemsFile(folder, opts.splitFileTypes ?? DEFAULT_SPLIT_FILE_TYPES));
    out[name] = requireNonEmpty(name, toItems(readSplitFile(file), file, opts.normalise), file);
  }
  return out;
}

const DEFAULT_SPLIT_FILE_TYPES = ["json", "jsonl"] as const;

/** The first file (sorted by name) of the first extension in `types` that the folder has. */
function firstItemsFile(folder: string, types: readonly string[]): string {
  const names = readdirSync(folder).sort();
  for (const ext of types) {
    const pick = names.find((n) => n.toLowerCase().endsWith(`.${ext}`));
    if (pick !== undefined) return path.join(folder, pick);
  }
  return invalidFile(folder, `no ${types.map((t) => `*.${t}`).join(" or ")} file in the split folder`);
}

function isDirectory(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}

/** `"2 : 1:7"` → `[2, 1, 7]` (the schema already checked the shape). */
export function parseSplitRatio(ratio: string): [number, number, number] {
  const parts = ratio.split(":").map((p) => Number.parseInt(p.trim(), 10));
  const [a, b, c] = parts;
  if (parts.length !== 3 || a === undefined || b === undefined || c === undefined || parts.some((n) => !(n > 0))) {
    throw new AppError(
      "INVALID_REQUEST",
      `env.split_ratio must be three positive integers like 2:1:7, got '${ratio}'`,
      {
        field: "env.split_ratio",
      },
    );
  }
  return [a, b, c];
}

/**
 * The data file of a ratio split: `configured` resolved against `rootDir` through `paths`, or the one
 * data file of a folder.
 */
export function resolveDataFile(
  rootDir: string,
  configured: string,
  paths: PathGuard = localPathGuard(rootDir),
): string {
  if (configured.trim() === "") {
    throw new AppError("INVALID_REQUEST", "env.data_path is required when env.split_mode is ratio", {
      field: "env.data_path",
    });
  }
  const target = paths.input("env.data_path", configured);
  if (!existsSync(target)) return invalidFile(target, "data_path does not exist");
  if (!isDirectory(target)) return target;
  if (SPLIT_NAMES.some((n) => isDirectory(path.join(target, n)))) {
    return invalidFile(target, "looks like a split folder (has train/val/test); use split_mode split_dir");
  }
  const files = readdirSync(target)
    .filter((n) => /\.(jsonl?|csv)$/i.test(n))
    .sort();
  if (files.length !== 1) {
    return invalidFile(target, `expected exactly one .json/.jsonl/.csv file in the folder, found ${files.length}`);
  }
  return paths.input("env.data_path", path.join(target, files[0] as string));
}

/** What a ratio split was made from, as recorded in its manifest. */
export interface RatioSource {
  source: string;
  ratio: string;
  seed: number;
}

function ratioSplit(opts: LoadSplitsOptions): { splits: Splits; meta: RatioSource } {
  const env = opts.config.env;
  const file = resolveDataFile(opts.rootDir, env.data_path, guardOf(opts));
  const items = toItems(readRawDataFile(file), file, opts.normalise);
  const weights = parseSplitRatio(env.split_ratio);
  const seed = env.split_seed || opts.config.train.seed;
  const shuffled = pyShuffled(items, seed);
  const [nTrain, nVal] = largestRemainderCounts(shuffled.length, weights) as [number, number, number];
  const splits: Splits = {
    train: shuffled.slice(0, nTrain),
    val: shuffled.slice(nTrain, nTrain + nVal),
    test: shuffled.slice(nTrain + nVal),
  };
  for (const name of SPLIT_NAMES) {
    requireNonEmpty(name, splits[name], `ratio ${weights.join(":")} of ${items.length} items from ${file}`);
  }
  return { splits, meta: { source: file, ratio: weights.join(":"), seed } };
}

function fromRatio(opts: LoadSplitsOptions): Splits {
  return ratioSplit(opts).splits;
}

/**
 * Where the CLI writes a ratio split: `env.split_output_dir`, else
 * `<env.out_root or rootDir>/_generated_splits/<benchmark>_<ratio>_seed<seed>`.
 */
export function defaultRatioOutputDir(config: RunConfig, rootDir: string, meta: RatioSource): string {
  const env = config.env;
  if (env.split_output_dir.trim() !== "") return path.resolve(rootDir, env.split_output_dir);
  const base = env.out_root.trim() !== "" ? path.resolve(rootDir, env.out_root) : rootDir;
  const name = env.name.trim() || "dataset";
  return path.join(base, "_generated_splits", `${name}_${meta.ratio.replaceAll(":", "-")}_seed${meta.seed}`);
}

/**
 * Writes the ratio split of `opts` (all items, before `env.limit`) as a reusable split_dir: each split's
 * `items.json` and a manifest, in `outDir(meta)` (default `defaultRatioOutputDir`). Returns the folder.
 * Call it only for a run that was accepted: loading itself writes nothing. Pass options of their own (a
 * benchmark's normaliser may be stateful).
 */
export function writeRatioSplit(opts: LoadSplitsOptions, outDir?: (meta: RatioSource) => string): string {
  const { splits, meta } = ratioSplit(opts);
  const dir = outDir ? outDir(meta) : defaultRatioOutputDir(opts.config, opts.rootDir, meta);
  writeRatioSplits(dir, splits, meta);
  return dir;
}

function writeRatioSplits(outDir: string, splits: Splits, meta: RatioSource): void {
  for (const name of SPLIT_NAMES) {
    mkdirSync(path.join(outDir, name), { recursive: true });
    writeFileSync(path.join(outDir, name, "items.json"), `${JSON.stringify(splits[name], null, 2)}\n`, "utf8");
  }
  const manifest = {
    source_data_path: meta.source,
    split_mode: "ratio",
    split_ratio: meta.ratio,
    split_seed: meta.seed,
    counts: { train: splits.train.length, val: splits.val.length, test: splits.test.length },
  };
  writeFileSync(path.join(outDir, "split_manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`, "utf8");
}
