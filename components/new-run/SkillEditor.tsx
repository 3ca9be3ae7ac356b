"use client";
import { FieldError } from "./FieldError";

/** The seed skill (markdown), prefilled with the preset's initial skill; only sent when edited. */
export function SkillEditor({
  value,
  presetValue,
  onChange,
  onReset,
  error,
}: {
  value: string;
  presetValue: string;
  onChange: (v: string) => void;
  onReset: () => void;
  error: string | undefined;
}) {
  const edited = value !== presetValue;
  const tooLong = error !== undefined;
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <label htmlFor="seed-skill" className="text-xs font-medium text-gray-800">
          Seed skill{" "}
          <span className="font-normal text-gray-500">
            (markdown; the preset&apos;s initial skill unless you edit it)
          </span>
        </label>
        <span className="flex items-center gap-3 text-xs text-gray-500">
          <span className={tooLong ? "text-red-700" : ""}>{value.length.toLocaleString("en-US")} chars</span>
          {edited && (
            <button type="button" className="text-indigo-700 hover:underline" onClick={onReset}>
              Reset to the preset&apos;s skill
            </button>
          )}
        </span>
      </div>
      <textarea
        id="seed-skill"
        className={`h-64 w-full resize-y rounded-md border bg-white p-2 font-mono text-xs leading-5 shadow-xs focus:border-indigo-500 focus:outline-none ${
          edited ? "border-indigo-400" : "border-gray-300"
        }`}
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {value.trim() === "" && (
        <p className="text-xs text-gray-500">An empty seed skill is allowed: training starts from nothing.</p>
      )}
      <FieldError field="skill" message={error} />
    </div>
  );
}
