"use client";
import type { ConfigSectionSpec } from "./config-fields";
import { ConfigFieldInput } from "./ConfigFieldInput";
import type { FormValue, FormValues } from "./form-values";

/** One config section as a collapsible group of fields; shows how many values differ from the preset. */
export function ConfigSectionFields({
  section,
  values,
  baseline,
  errors,
  onChange,
  onReset,
  defaultOpen,
}: {
  section: ConfigSectionSpec;
  values: FormValues;
  baseline: FormValues;
  errors: Record<string, string>;
  onChange: (key: string, v: FormValue) => void;
  onReset: (key: string) => void;
  defaultOpen: boolean;
}) {
  const changed = section.fields.filter((f) => values[f.key] !== baseline[f.key]).length;
  const failing = section.fields.filter((f) => errors[f.key]).length;
  return (
    <details
      open={defaultOpen || failing > 0}
      className="group rounded-lg border border-gray-200 bg-white shadow-xs"
      data-section={section.id}
    >
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 px-3 py-2">
        <span>
          <span className="font-semibold">{section.title}</span>
          <span className="ml-2 text-xs text-gray-500">{section.blurb}</span>
        </span>
        <span className="flex shrink-0 items-center gap-2 text-xs">
          {failing > 0 && <span className="text-red-700">{failing} invalid</span>}
          {changed > 0 && <span className="text-indigo-700">{changed} changed</span>}
          <span className="text-gray-400 group-open:rotate-90" aria-hidden>
            ▶
          </span>
        </span>
      </summary>
      <div className="grid grid-cols-2 gap-x-4 gap-y-3 border-t border-gray-100 p-3 md:grid-cols-3 xl:grid-cols-4">
        {section.fields.map((f) => (
          <ConfigFieldInput
            key={f.key}
            field={f}
            value={values[f.key] ?? ""}
            baseline={baseline[f.key] ?? ""}
            error={errors[f.key]}
            onChange={(v) => onChange(f.key, v)}
            onReset={() => onReset(f.key)}
          />
        ))}
      </div>
    </details>
  );
}
