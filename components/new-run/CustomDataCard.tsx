"use client";
import { CUSTOM_METRICS, MAX_UPLOAD_BYTES, type CustomMetric } from "@/lib/contracts/api";
import { Card } from "../ui/Card";
import { Notice } from "../ui/Notice";
import { MAPPING_KEYS, MAPPING_LABELS, METRIC_HELP } from "./custom-data";
import { DataPreviewTable } from "./DataPreviewTable";
import { FieldError } from "./FieldError";
import type { CustomDataModel } from "./use-custom-data";

const INPUT =
  "mt-0.5 w-full rounded-md border border-gray-300 bg-white px-2 py-1 text-sm shadow-xs focus:border-indigo-500 focus:outline-none";
const LABEL = "text-xs font-medium text-gray-800";

/** Custom benchmark: upload a .jsonl/.csv file, map its columns, choose the metric. Split counts and hashes show in the estimate. */
export function CustomDataCard({
  model,
  errors,
  optimizerBackend,
}: {
  model: CustomDataModel;
  errors: Record<string, string>;
  optimizerBackend: string;
}) {
  const v = model.values;
  if (!v) return null;
  const up = v.upload;
  const columns = up ? up.columns : [...new Set(MAPPING_KEYS.map((k) => v.mapping[k]).filter((c) => c !== ""))];
  const roles = Object.fromEntries(
    MAPPING_KEYS.filter((k) => v.mapping[k] !== "").map((k) => [v.mapping[k], MAPPING_LABELS[k].label.toLowerCase()]),
  );
  return (
    <Card title="Your data" testId="custom-data">
      <div className="space-y-3">
        {!v.needsFile && <DataSourceChoice model={model} />}
        <div>
          <label htmlFor="custom-file" className={LABEL}>
            Data file (.jsonl or .csv, up to {MAX_UPLOAD_BYTES / 1024 / 1024} MB)
          </label>
          <input
            id="custom-file"
            type="file"
            accept=".jsonl,.csv"
            className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-1 file:text-indigo-700"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) model.upload.mutate(file);
            }}
          />
          {model.upload.isPending && <p className="mt-1 text-xs text-gray-500">Uploading and checking the file…</p>}
          <FieldError field="file" message={errors.file} />
          {up && v.source === "upload" && (
            <p className="mt-1 text-xs text-gray-600" data-testid="upload-summary">
              {up.fileName}: {up.rows} rows, {up.columns.length} columns · sha256{" "}
              <span className="font-mono">{up.sha256.slice(0, 12)}</span> · stored as{" "}
              <span className="font-mono">{up.path}</span>
            </p>
          )}
        </div>
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
          {MAPPING_KEYS.map((key) => {
            const info = MAPPING_LABELS[key];
            const id = `cfg-env.${key}`;
            return (
              <div key={key} className="min-w-0">
                <label htmlFor={id} className={LABEL} title={`env.${key}`}>
                  {info.label} column{info.optional ? "" : " *"}
                </label>
                <select
                  id={id}
                  className={INPUT}
                  value={v.mapping[key]}
                  onChange={(e) => model.setMapping(key, e.target.value)}
                >
                  {(info.optional || v.mapping[key] === "") && (
                    <option value="">{info.optional ? "(none)" : "(choose)"}</option>
                  )}
                  {columns.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
                <p className="mt-0.5 text-[11px] text-gray-500">{info.help}</p>
                <FieldError field={`env.${key}`} message={errors[`env.${key}`]} />
              </div>
            );
          })}
        </div>
        <div className="grid grid-cols-1 gap-3 md:grid-cols-[12rem_minmax(0,1fr)]">
          <div>
            <label htmlFor="cfg-env.metric" className={LABEL}>
              Metric
            </label>
            <select
              id="cfg-env.metric"
              className={INPUT}
              value={v.metric}
              onChange={(e) => model.set({ metric: e.target.value as CustomMetric })}
            >
              {CUSTOM_METRICS.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
            <p className="mt-0.5 text-[11px] text-gray-500">{METRIC_HELP[v.metric]}</p>
          </div>
          <MetricOptions model={model} errors={errors} optimizerBackend={optimizerBackend} />
        </div>
        {up && <DataPreviewTable upload={up} roles={roles} />}
      </div>
    </Card>
  );
}

/** The explicit choice between the preset's example file and an upload (presets that ship an example). */
function DataSourceChoice({ model }: { model: CustomDataModel }) {
  const v = model.values!;
  return (
    <fieldset className="flex flex-wrap gap-x-5 gap-y-1 text-sm" data-testid="data-source">
      <legend className={LABEL}>Train on</legend>
      <label className="flex items-center gap-1.5">
        <input type="radio" name="data-source" checked={v.source === "example"} onChange={model.pickExample} />
        the preset&apos;s example file <span className="font-mono text-xs text-gray-600">{v.exampleFile}</span>
      </label>
      <label className="flex items-center gap-1.5">
        <input type="radio" name="data-source" checked={v.source === "upload"} onChange={model.chooseUpload} />
        my own file (upload below)
      </label>
    </fieldset>
  );
}

function MetricOptions({
  model,
  errors,
  optimizerBackend,
}: {
  model: CustomDataModel;
  errors: Record<string, string>;
  optimizerBackend: string;
}) {
  const v = model.values!;
  if (v.metric === "numeric") {
    return (
      <div>
        <label htmlFor="cfg-env.numeric_tolerance" className={LABEL}>
          Numeric tolerance
        </label>
        <input
          id="cfg-env.numeric_tolerance"
          className={`${INPUT} tabular-nums`}
          inputMode="decimal"
          value={v.numeric_tolerance}
          onChange={(e) => model.set({ numeric_tolerance: e.target.value })}
        />
        <p className="mt-0.5 text-[11px] text-gray-500">
          Correct when |answer − gold| ≤ tolerance × max(1, |gold|); 0.01 = 1 %.
        </p>
        <FieldError field="env.numeric_tolerance" message={errors["env.numeric_tolerance"]} />
      </div>
    );
  }
  if (v.metric === "regex") {
    return (
      <div>
        <label htmlFor="cfg-env.answer_regex" className={LABEL}>
          Answer pattern
        </label>
        <input
          id="cfg-env.answer_regex"
          className={`${INPUT} font-mono`}
          value={v.answer_regex}
          placeholder="(?:option )?{answer}\.?"
          onChange={(e) => model.set({ answer_regex: e.target.value })}
        />
        <p className="mt-0.5 text-[11px] text-gray-500">
          Case-insensitive. With {"{answer}"} the whole answer must match; without it the first group is compared like
          exact.
        </p>
        <FieldError field="env.answer_regex" message={errors["env.answer_regex"]} />
      </div>
    );
  }
  if (v.metric === "judge") {
    return (
      <div>
        <label htmlFor="cfg-env.judge_rubric" className={LABEL}>
          Judge rubric
        </label>
        <textarea
          id="cfg-env.judge_rubric"
          rows={3}
          className={INPUT}
          value={v.judge_rubric}
          placeholder="Empty: 1 when the answer means the same as a gold answer, 0 otherwise."
          onChange={(e) => model.set({ judge_rubric: e.target.value })}
        />
        {optimizerBackend === "sim" && (
          <Notice tone="warn">
            The simulated optimizer ignores the rubric: it scores 1 for an answer equal to a gold answer after
            normalisation, 0.4 for a partial overlap, else 0. Choose a real optimizer backend to grade with your rubric.
          </Notice>
        )}
      </div>
    );
  }
  return null;
}
