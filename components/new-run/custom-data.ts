/**
 * The custom benchmark's part of the New run form: the uploaded file, the field mapping and the metric,
 * and the overrides they become (env.data_path points at the stored upload). Pure functions; the hook
 * in use-custom-data.ts holds the state.
 */
import { CUSTOM_METRICS, type CustomMetric, type PresetInfo, type UploadInfo } from "@/lib/contracts/api";

export const MAPPING_KEYS = ["question_field", "answer_field", "id_field", "context_field"] as const;
export type MappingKey = (typeof MAPPING_KEYS)[number];

export interface CustomDataValues {
  /**
   * Where the data comes from: an upload, or the preset's own example file. Choosing a file switches to
   * "upload", so a failed upload leaves no data (Start stays blocked) until the user uploads another file
   * or chooses the example again.
   */
  source: "upload" | "example";
  upload: UploadInfo | null;
  /** The preset's data file, when it has one (the example the user may choose). */
  exampleFile: string;
  /** True when the preset names no data file (a ratio split with an empty env.data_path): an upload is required. */
  needsFile: boolean;
  mapping: Record<MappingKey, string>;
  metric: CustomMetric;
  /** As typed. */
  numeric_tolerance: string;
  answer_regex: string;
  judge_rubric: string;
}

export const MAPPING_LABELS: Record<MappingKey, { label: string; help: string; optional: boolean }> = {
  question_field: { label: "Question", help: "The text the model answers.", optional: false },
  answer_field: { label: "Answer", help: "Gold answer(s): a JSON list or a |-separated text.", optional: false },
  id_field: { label: "Id", help: "Optional; rows without one get a content hash.", optional: true },
  context_field: { label: "Context", help: "Optional passage shown before the question.", optional: true },
};

export const METRIC_HELP: Record<CustomMetric, string> = {
  exact: "Exact match after normalising case, punctuation and articles.",
  contains: "A gold answer appears in the answer as whole words.",
  f1: "Token F1 as the soft score; correct when F1 ≥ 0.5.",
  numeric: "The answer's number within the tolerance of a gold number (relative, floor 1).",
  regex: "{answer} in the pattern stands for the gold; without it the first group is the answer.",
  judge: "The optimizer model grades each answer with your rubric (one extra call per item).",
};

const text = (v: unknown, fallback = "") => (typeof v === "string" ? v : fallback);

/** The form's starting values: the preset's mapping and metric, no upload. */
export function initialCustomData(preset: PresetInfo): CustomDataValues {
  const env = preset.config.env as Record<string, unknown>;
  const metric = (CUSTOM_METRICS as readonly unknown[]).includes(env.metric) ? (env.metric as CustomMetric) : "exact";
  const needsFile = env.split_mode === "ratio" && text(env.data_path).trim() === "";
  return {
    source: needsFile ? "upload" : "example",
    upload: null,
    exampleFile: text(env.data_path).trim(),
    needsFile,
    mapping: {
      question_field: text(env.question_field, "question"),
      answer_field: text(env.answer_field, "answer"),
      id_field: text(env.id_field, "id"),
      context_field: text(env.context_field),
    },
    metric,
    numeric_tolerance: typeof env.numeric_tolerance === "number" ? String(env.numeric_tolerance) : "0.000001",
    answer_regex: text(env.answer_regex),
    judge_rubric: text(env.judge_rubric),
  };
}

/** The mapping after an upload: the guesses where the preset's column is not in the file. */
export function mappingForUpload(
  current: CustomDataValues["mapping"],
  upload: UploadInfo,
): CustomDataValues["mapping"] {
  const out = { ...current };
  for (const key of MAPPING_KEYS) {
    if (!upload.columns.includes(out[key])) out[key] = upload.suggested[key];
  }
  return out;
}

/** Client-side checks (the server checks again against every row). */
export function validateCustomData(v: CustomDataValues, uploadError?: string): Record<string, string> {
  const errs: Record<string, string> = {};
  if (v.source === "upload" && !v.upload) {
    const example = v.needsFile ? "" : ", or choose the preset's example file";
    errs.file = uploadError
      ? `the upload failed (${uploadError.replace(/^file: /, "")}); upload another file${example}`
      : `upload a .jsonl or .csv file${example}`;
  }
  for (const key of MAPPING_KEYS) {
    const col = v.mapping[key];
    if (!MAPPING_LABELS[key].optional && col === "") errs[`env.${key}`] = "choose the column";
    else if (v.upload && col !== "" && !v.upload.columns.includes(col))
      errs[`env.${key}`] = `'${col}' is not a column of the file`;
  }
  const q = v.mapping.question_field;
  if (q !== "" && q === v.mapping.answer_field) errs["env.answer_field"] = "must differ from the question column";
  if (v.metric === "numeric") {
    const n = Number(v.numeric_tolerance);
    if (v.numeric_tolerance.trim() === "" || !Number.isFinite(n) || n < 0)
      errs["env.numeric_tolerance"] = "a number ≥ 0";
  }
  if (v.metric === "regex") {
    if (v.answer_regex === "") errs["env.answer_regex"] = "required for metric regex";
    else {
      try {
        new RegExp(v.answer_regex.replaceAll("{answer}", "x"), "i");
      } catch {
        errs["env.answer_regex"] = "not a valid regular expression";
      }
    }
  }
  return errs;
}

/** True when the request must say it trains on the preset's example file (the server refuses it otherwise). */
export const usesExampleData = (v: CustomDataValues) => v.source === "example" && !v.needsFile;

/** The overrides: the stored upload as a ratio split, and each mapping/metric value that differs from the preset. */
export function customOverrides(v: CustomDataValues, baseline: CustomDataValues): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (v.source === "upload" && v.upload) {
    out["env.split_mode"] = "ratio";
    // The server writes the split files itself, under .skillopt/splits/: a request may not choose where.
    out["env.data_path"] = v.upload.path;
  }
  for (const key of MAPPING_KEYS) if (v.mapping[key] !== baseline.mapping[key]) out[`env.${key}`] = v.mapping[key];
  if (v.metric !== baseline.metric) out["env.metric"] = v.metric;
  if (v.numeric_tolerance !== baseline.numeric_tolerance && v.numeric_tolerance.trim() !== "")
    out["env.numeric_tolerance"] = Number(v.numeric_tolerance);
  if (v.answer_regex !== baseline.answer_regex) out["env.answer_regex"] = v.answer_regex;
  if (v.judge_rubric !== baseline.judge_rubric) out["env.judge_rubric"] = v.judge_rubric;
  return out;
}
