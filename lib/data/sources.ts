/**
 * Where `data pull` gets each benchmark: the original's ID manifests (raw files of its GitHub repo) and
 * the public dataset files on Hugging Face. Every URL is built here and nowhere else, so a changed file
 * name upstream is a one-line fix, and `--mirror` / SKILLOPT_DATA_MIRROR can redirect all of them.
 *
 * Verified from the original's data README and download scripts: the manifest folder names, the HF
 * repositories, LiveMath's four monthly file paths (and their pinned revision), SpreadsheetBench's
 * archive name and pinned revision, OfficeQA's `officeqa_full.csv`. Not verifiable offline: that the
 * manifests live on the `main` branch at `data/<dir>/`, and the parquet shard names of SearchQA and
 * DocVQA — those are discovered through the Hugging Face tree API instead of being guessed.
 */

/** The benchmarks `data pull` knows. */
export const DATA_BENCHMARKS = ["searchqa", "livemath", "officeqa", "docvqa", "spreadsheetbench", "alfworld"] as const;
export type DataBenchmark = (typeof DATA_BENCHMARKS)[number];

/** Names users may type for a benchmark. */
const ALIASES: Record<string, DataBenchmark> = {
  livemathematicianbench: "livemath",
  spreadsheet: "spreadsheetbench",
};

/** A dataset file, or every file of a folder (found through the HF tree API) whose name matches. */
export type DatasetFiles =
  | { kind: "files"; paths: readonly string[] }
  | { kind: "listing"; dir: string; match: RegExp };

/** One row of the sources table. */
export interface DataSource {
  benchmark: DataBenchmark;
  title: string;
  /** Folder of the original repo's `data/` holding split_manifest.json + train|val|test/items.json. */
  manifestDir: string;
  /** Default output folder: the `env.split_dir` of configs/<benchmark>/default.yaml. */
  defaultOut: string;
  /** Hugging Face dataset repository (absent for ALFWorld). */
  dataset?: { repo: string; revision: string; files: DatasetFiles; gated?: boolean };
  /** What the user must still do after the pull (printed by the CLI). */
  note?: string;
}

/** The original's repository, as raw files. */
export const MANIFEST_BASE = "https://raw.githubusercontent.com/microsoft/SkillOpt/main/data";
/** Hugging Face hub. */
export const HF_BASE = "https://huggingface.co";

export const SOURCES: Record<DataBenchmark, DataSource> = {
  searchqa: {
    benchmark: "searchqa",
    title: "SearchQA (lucadiliello/searchqa, matched by `key`)",
    manifestDir: "searchqa_id_split",
    defaultOut: "data/searchqa_split",
    dataset: { repo: "lucadiliello/searchqa", revision: "main", files: { kind: "listing", dir: "data", match: /\.parquet$/ } },
  },
  livemath: {
    benchmark: "livemath",
    title: "LiveMathematicianBench (4 monthly files 202511–202602, matched by `source_file` + `no`)",
    manifestDir: "livemathematicianbench_id_split",
    defaultOut: "data/livemathematicianbench_split",
    dataset: {
      repo: "LiveMathematicianBench/LiveMathematicianBench",
      revision: "b72450f6ce96c26158d64d945a5d31ef7727be41",
      files: {
        kind: "files",
        paths: [
          "data/202511/qa_202511_final.json",
          "data/202512/qa_202512_final.json",
          "data/202601/qa_202601_final.json",
          "data/202602/qa_202602_final.json",
        ],
      },
    },
  },
  officeqa: {
    benchmark: "officeqa",
    title: "OfficeQA Full (databricks/officeqa, gated: needs HF_TOKEN; matched by `uid`)",
    manifestDir: "officeqa_id_split",
    defaultOut: "data/officeqa_split",
    dataset: { repo: "databricks/officeqa", revision: "main", files: { kind: "files", paths: ["officeqa_full.csv"] }, gated: true },
    note: "the Treasury-bulletin corpus is not pulled: put it in data/officeqa_docs_official (env.data_dirs)",
  },
  docvqa: {
    benchmark: "docvqa",
    title: "DocVQA (lmms-lab/DocVQA validation parquet, matched by `questionId`; page images written out)",
    manifestDir: "docvqa_id_split",
    defaultOut: "data/docvqa/splits",
    dataset: { repo: "lmms-lab/DocVQA", revision: "main", files: { kind: "listing", dir: "DocVQA", match: /^validation-.*\.parquet$/ } },
  },
  spreadsheetbench: {
    benchmark: "spreadsheetbench",
    title: "SpreadsheetBench Verified 400 (KAKA22/SpreadsheetBench tarball, matched by `id`)",
    manifestDir: "spreadsheetbench_id_split",
    defaultOut: "data/spreadsheetbench_split",
    dataset: {
      repo: "KAKA22/SpreadsheetBench",
      revision: "ab0b742b0fc95b946f212d80ac7771b5531272e4",
      files: { kind: "files", paths: ["spreadsheetbench_verified_400.tar.gz"] },
    },
    note: "set env.data_root to the printed task folder (the pull keeps it inside the output folder)",
  },
  alfworld: {
    benchmark: "alfworld",
    title: "ALFWorld json_2.1.1 (path manifest only; game files come from `alfworld-download`)",
    manifestDir: "alfworld_path_split",
    defaultOut: "data/alfworld_path_split",
    note: "game files are not pulled: run `alfworld-download` (pip package alfworld) and set ALFWORLD_DATA to its folder",
  },
};

/** The canonical benchmark for a typed name, or null. */
export function findDataSource(name: string): DataSource | null {
  const key = name.trim().toLowerCase();
  const canonical = (DATA_BENCHMARKS as readonly string[]).includes(key) ? (key as DataBenchmark) : ALIASES[key];
  return canonical ? SOURCES[canonical] : null;
}

/** URL of a manifest file, e.g. `manifestUrl(src, "train/items.json")`. */
export function manifestUrl(src: DataSource, file: string): string {
  return `${MANIFEST_BASE}/${src.manifestDir}/${file}`;
}

/** URL of a dataset file at the pinned revision. */
export function datasetFileUrl(repo: string, revision: string, file: string): string {
  return `${HF_BASE}/datasets/${repo}/resolve/${revision}/${file.split("/").map(encodeURIComponent).join("/")}`;
}

/** The HF tree API URL listing a dataset folder (JSON array of `{type, path, size}`). */
export function datasetTreeUrl(repo: string, revision: string, dir: string): string {
  return `${HF_BASE}/api/datasets/${repo}/tree/${revision}/${dir}`;
}
