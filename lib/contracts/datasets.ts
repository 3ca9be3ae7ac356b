/**
 * Contracts of the custom benchmark's datasets: the metrics, the upload limits and answer of
 * `POST /api/uploads`, and the fingerprint (content hashes) of a run's data and splits. Client-safe.
 */
/** How the custom benchmark scores an answer (env.metric). */
export const CUSTOM_METRICS = ["exact", "contains", "f1", "numeric", "regex", "judge"] as const;
export type CustomMetric = (typeof CUSTOM_METRICS)[number];

/** Largest data file the dashboard accepts (`POST /api/uploads`). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** File types the upload accepts, by extension. */
export const UPLOAD_FILE_TYPES = ["jsonl", "csv"] as const;

/** What `POST /api/uploads` answers: the stored file and enough of it to map its fields. */
export interface UploadInfo {
  /** Where the file is stored, relative to the project root (`.skillopt/uploads/<sha256>.<ext>`): the run's env.data_path. */
  path: string;
  /** sha256 of the file's bytes (hex). */
  sha256: string;
  /** The name the user's file had. */
  fileName: string;
  format: (typeof UPLOAD_FILE_TYPES)[number];
  bytes: number;
  rows: number;
  /** Field names in order of first appearance. */
  columns: string[];
  /** The first rows, values cut to a few hundred characters. */
  preview: Array<Record<string, string>>;
  /** A guess of the mapping from common column names ("" when there is no good guess). */
  suggested: { id_field: string; question_field: string; answer_field: string; context_field: string };
}

/** A short content hash of the data and of each split's ordered item ids, so a split can be checked for sameness. */
export interface DatasetFingerprint {
  splitMode: string;
  /** The data file of a ratio split, relative to the project root when inside it. */
  dataPath: string | null;
  /** sha256 of the data file (first 12 hex digits); null for split folders and the built-in sample. */
  dataSha256: string | null;
  splits: Record<"train" | "val" | "test", { count: number; sha256: string }>;
}
