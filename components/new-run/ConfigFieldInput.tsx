"use client";
import type { ConfigField } from "./config-fields";
import { FieldError } from "./FieldError";
import type { FormValue } from "./form-values";

const INPUT =
  "w-full rounded-md border bg-white px-2 py-1 text-sm shadow-xs focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none";

/** One hyper-parameter: label, input by kind, one-line help, a "changed" marker with reset, and its error. */
export function ConfigFieldInput({
  field,
  value,
  baseline,
  error,
  onChange,
  onReset,
}: {
  field: ConfigField;
  value: FormValue;
  baseline: FormValue;
  error: string | undefined;
  onChange: (v: FormValue) => void;
  onReset: () => void;
}) {
  const id = `cfg-${field.key}`;
  const changed = value !== baseline;
  const border = error ? "border-red-400" : changed ? "border-indigo-400" : "border-gray-300";
  const k = field.kind;
  return (
    <div className="min-w-0">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="truncate text-xs font-medium text-gray-800" title={field.key}>
          {field.label}
        </label>
        {changed && (
          <button
            type="button"
            onClick={onReset}
            className="shrink-0 text-[11px] text-indigo-700 hover:underline"
            title={`Reset to the preset's value (${String(baseline) || "empty"})`}
          >
            reset
          </button>
        )}
      </div>
      {k.type === "bool" ? (
        <div className="mt-1 flex items-center gap-2 text-sm">
          <input
            id={id}
            type="checkbox"
            className="size-4 accent-indigo-600"
            checked={value === true}
            aria-describedby={`${id}-help`}
            onChange={(e) => onChange(e.target.checked)}
          />
          <span className="text-gray-700" aria-hidden>
            {value ? "on" : "off"}
          </span>
        </div>
      ) : k.type === "enum" ? (
        <select
          id={id}
          className={`${INPUT} ${border}`}
          value={String(value)}
          onChange={(e) => onChange(e.target.value)}
        >
          {field.nullable && <option value="">(not set)</option>}
          {k.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          className={`${INPUT} ${border} ${k.type === "text" ? "" : "tabular-nums"}`}
          // Text, not type=number: a number input reports "" for a half-typed "1e", which would read as
          // "required"; as text the form sees what was typed and says "not a number".
          type="text"
          inputMode={k.type === "int" ? "numeric" : k.type === "number" ? "decimal" : undefined}
          value={String(value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-help`}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      <p id={`${id}-help`} className="mt-0.5 text-[11px] leading-tight text-gray-500">
        {field.help}
      </p>
      <FieldError field={field.key} message={error} />
    </div>
  );
}
