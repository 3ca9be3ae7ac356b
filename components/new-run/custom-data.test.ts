import { describe, expect, it } from "vitest";
import type { PresetInfo, UploadInfo } from "@/lib/contracts/api";
import {
  customOverrides,
  initialCustomData,
  mappingForUpload,
  usesExampleData,
  validateCustomData,
} from "./custom-data";

const preset = {
  path: "custom/sample.yaml",
  env: "custom",
  config: {
    env: {
      name: "custom",
      id_field: "uid",
      question_field: "prompt",
      answer_field: "gold",
      context_field: "passage",
      metric: "exact",
      numeric_tolerance: 1e-6,
      answer_regex: "",
      judge_rubric: "",
    },
  },
} as unknown as PresetInfo;

const upload: UploadInfo = {
  path: ".skillopt/uploads/abc.csv",
  sha256: "abc",
  fileName: "qa.csv",
  format: "csv",
  bytes: 10,
  rows: 3,
  columns: ["Question", "Answer", "prompt"],
  preview: [],
  suggested: { id_field: "", question_field: "Question", answer_field: "Answer", context_field: "" },
};

describe("custom data form values", () => {
  const base = initialCustomData(preset);

  it("starts from the preset's mapping and sends nothing until something changes", () => {
    expect(base.mapping).toEqual({
      question_field: "prompt",
      answer_field: "gold",
      id_field: "uid",
      context_field: "passage",
    });
    expect(customOverrides(base, base)).toEqual({});
    expect(validateCustomData(base)).toEqual({});
  });

  it("requires an upload when the preset names no data file", () => {
    const bare = {
      ...preset,
      config: { env: { ...(preset.config.env as object), split_mode: "ratio", data_path: "" } },
    } as unknown as PresetInfo;
    const v = initialCustomData(bare);
    expect(v.source).toBe("upload");
    expect(usesExampleData(v)).toBe(false);
    expect(validateCustomData(v)).toEqual({ file: "upload a .jsonl or .csv file" });
    expect(validateCustomData({ ...v, upload, mapping: mappingForUpload(v.mapping, upload) })).toEqual({});
  });

  it("after an upload keeps preset columns the file has and guesses the others; the run points at the stored file", () => {
    const mapping = mappingForUpload(base.mapping, upload);
    expect(mapping).toEqual({ question_field: "prompt", answer_field: "Answer", id_field: "", context_field: "" });
    const v = { ...base, source: "upload" as const, upload, mapping };
    expect(customOverrides(v, base)).toEqual({
      "env.split_mode": "ratio",
      "env.data_path": ".skillopt/uploads/abc.csv",
      "env.answer_field": "Answer",
      "env.id_field": "",
      "env.context_field": "",
    });
  });

  it("flags a missing or foreign column and metric options that are needed", () => {
    const v = {
      ...base,
      upload,
      mapping: { question_field: "", answer_field: "gold", id_field: "", context_field: "" },
    };
    expect(validateCustomData(v)).toEqual({
      "env.question_field": "choose the column",
      "env.answer_field": "'gold' is not a column of the file",
    });
    expect(validateCustomData({ ...base, metric: "regex" })).toEqual({
      "env.answer_regex": "required for metric regex",
    });
    expect(validateCustomData({ ...base, metric: "regex", answer_regex: "([a-" })).toEqual({
      "env.answer_regex": "not a valid regular expression",
    });
    expect(validateCustomData({ ...base, metric: "numeric", numeric_tolerance: "-1" })).toEqual({
      "env.numeric_tolerance": "a number ≥ 0",
    });
    expect(customOverrides({ ...base, metric: "numeric", numeric_tolerance: "0.01" }, base)).toEqual({
      "env.metric": "numeric",
      "env.numeric_tolerance": 0.01,
    });
  });

  it("a failed upload blocks the run until the user uploads another file or chooses the example", () => {
    const sample = {
      ...preset,
      config: {
        env: { ...(preset.config.env as object), split_mode: "ratio", data_path: "configs/custom/example.jsonl" },
      },
    } as unknown as PresetInfo;
    const start = initialCustomData(sample);
    expect(start).toMatchObject({ source: "example", exampleFile: "configs/custom/example.jsonl" });
    expect(usesExampleData(start)).toBe(true);
    // The user picked a file (source → upload, no stored file) and the server refused it.
    const failed = { ...start, source: "upload" as const, upload: null };
    expect(validateCustomData(failed, "file: 'notes.txt' is not a .jsonl or .csv file")).toEqual({
      file: "the upload failed ('notes.txt' is not a .jsonl or .csv file); upload another file, or choose the preset's example file",
    });
    expect(usesExampleData(failed)).toBe(false);
    // Nothing points the run at the example either: the request would carry neither a file nor exampleData.
    expect(customOverrides(failed, start)["env.data_path"]).toBeUndefined();
    // A stored upload that the user then switches away from is not sent.
    expect(customOverrides({ ...start, upload }, start)["env.data_path"]).toBeUndefined();
  });
});
