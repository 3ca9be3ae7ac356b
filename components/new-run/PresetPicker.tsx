"use client";
import type { PresetInfo } from "@/lib/contracts/api";
import { SimulatedBadge } from "../ui/SimulatedBadge";
import { FieldError } from "./FieldError";

export const SIM_LATENCY_KEY = "model.sim_latency_ms";
/** Per simulated call: slow enough to watch steps arrive one by one, a sample run still ends in under a minute. */
export const WATCH_LATENCY_MS = 250;

/** One preset as its option reads (and its tooltip): path, title, and whether it runs offline or at all. */
function optionLabel(p: PresetInfo): string {
  const sim = p.simulated ? " (simulated, offline)" : "";
  return `${p.path} — ${p.title}${sim}${p.error ? ` — unavailable: ${p.error}` : ""}`;
}

/**
 * Preset select (samples first) with the preset's YAML in a collapsible, read-only code block, and — when
 * the simulated model plays a role — the "watch it unfold" switch (a latency per simulated call).
 */
export function PresetPicker({
  presets,
  selected,
  onSelect,
  error,
  watch,
}: {
  presets: PresetInfo[];
  selected: PresetInfo;
  onSelect: (path: string) => void;
  error: string | undefined;
  watch: { on: boolean; onChange: (on: boolean) => void } | null;
}) {
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex min-w-0 flex-[1_1_18rem] flex-col gap-1">
          <label htmlFor="preset" className="text-xs font-medium text-gray-800">
            Preset
          </label>
          <select
            id="preset"
            className="w-full min-w-0 truncate rounded-md border border-gray-300 bg-white px-2 py-1.5 text-sm shadow-xs focus:border-indigo-500 focus:outline-none"
            value={selected.path}
            title={optionLabel(selected)}
            onChange={(e) => onSelect(e.target.value)}
          >
            {presets.map((p) => (
              <option key={p.path} value={p.path} disabled={Boolean(p.error)} title={optionLabel(p)}>
                {optionLabel(p)}
              </option>
            ))}
          </select>
          {/* A closed select cuts a long title at its edge: the chosen one is also written out in full. */}
          <p className="text-xs break-words text-gray-600" data-testid="preset-title">
            {selected.title}
          </p>
        </div>
        <div className="flex items-center gap-2 pb-1.5 text-xs text-gray-600">
          benchmark <b className="text-gray-800">{selected.env}</b>
          {selected.simulated && <SimulatedBadge />}
        </div>
        {watch && (
          <label
            className="flex items-center gap-2 pb-1.5 text-xs text-gray-700"
            title={`Adds ${WATCH_LATENCY_MS} ms to every simulated call (${SIM_LATENCY_KEY}), so the run page fills in step by step`}
          >
            <input
              type="checkbox"
              className="size-4 accent-indigo-600"
              data-testid="watch-unfold"
              checked={watch.on}
              onChange={(e) => watch.onChange(e.target.checked)}
            />
            Watch it unfold <span className="text-gray-500">(slow the simulated model down)</span>
          </label>
        )}
      </div>
      <FieldError field="preset" message={error} />
      <details className="rounded-md border border-gray-200 bg-gray-50">
        <summary className="cursor-pointer px-3 py-1.5 text-xs text-gray-700 hover:text-gray-900">
          Preset YAML <span className="font-mono text-gray-500">configs/{selected.path}</span>
        </summary>
        <pre
          className="max-h-80 overflow-auto border-t border-gray-200 bg-white p-3 font-mono text-xs leading-5 text-gray-800"
          aria-label="Preset YAML"
        >
          {selected.yaml}
        </pre>
      </details>
    </div>
  );
}
