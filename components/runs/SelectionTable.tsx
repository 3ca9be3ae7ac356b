"use client";
import { useMemo, useState } from "react";
import type { StepDetail } from "@/lib/contracts/api";
import { Notice } from "../ui/Notice";
import { ShowMore } from "../ui/ShowMore";
import { TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "../ui/table";

type Row = StepDetail["selection"][number];
type Filter = "flipped" | "wrong" | "errors" | "all";
const PAGE = 100;

const FILTERS: Array<{ key: Filter; label: string; test: (r: Row) => boolean }> = [
  { key: "flipped", label: "Flipped", test: (r) => r.flipped },
  { key: "wrong", label: "Wrong", test: (r) => r.status === "ok" && r.hard < 1 },
  // Errors, timeouts and truncated answers are not answers: never scored, only counted.
  { key: "errors", label: "Not answered", test: (r) => r.status !== "ok" },
  { key: "all", label: "All", test: () => true },
];

function change(r: Row): "fixed" | "broken" | null {
  if (!r.flipped || r.currentHard === null) return null;
  return r.hard > r.currentHard ? "fixed" : "broken";
}

/** Per-item selection outcome of the candidate; items that flipped against the current skill stand out. */
export function SelectionTable({
  rows,
  currentKnown,
  currentFromStep = null,
}: {
  rows: Row[];
  currentKnown: boolean;
  /** When the current skill was not measured: the step whose results stand in for it (0 = baseline). */
  currentFromStep?: number | null;
}) {
  const comparable = currentKnown || currentFromStep !== null;
  const counts = useMemo(
    () => Object.fromEntries(FILTERS.map((f) => [f.key, rows.filter(f.test).length])) as Record<Filter, number>,
    [rows],
  );
  const [filter, setFilter] = useState<Filter | null>(null);
  const active: Filter = filter ?? (counts.flipped > 0 ? "flipped" : "all");
  const [limit, setLimit] = useState(PAGE);
  const visible = useMemo(() => rows.filter(FILTERS.find((f) => f.key === active)!.test), [rows, active]);
  const fixed = rows.filter((r) => change(r) === "fixed").length;
  const correct = rows.filter((r) => r.hard >= 1).length;

  return (
    <section aria-label="Selection results">
      <div className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 className="text-sm font-semibold">Selection items</h3>
        {rows.length > 0 && (
          <span className="text-xs text-gray-600 tabular-nums">
            candidate correct {correct}/{rows.length - counts.errors}
            {counts.errors > 0 && ` · ${counts.errors} not answered`}
            {comparable && ` · fixed ${fixed} · broken ${counts.flipped - fixed}`}
          </span>
        )}
        <div className="flex gap-1 text-xs" role="group" aria-label="Filter items">
          {FILTERS.map((f) => (
            <button
              key={f.key}
              type="button"
              aria-pressed={active === f.key}
              onClick={() => {
                setFilter(f.key);
                setLimit(PAGE);
              }}
              className={`rounded border px-2 py-0.5 ${active === f.key ? "border-indigo-300 bg-indigo-50 text-indigo-800" : "border-gray-200 text-gray-600 hover:bg-gray-50"}`}
            >
              {f.label} ({counts[f.key]})
            </button>
          ))}
        </div>
      </div>
      {!currentKnown && rows.length > 0 && (
        <div className="mb-2" data-testid="selection-last-known">
          <Notice>
            {currentFromStep === null
              ? "The current skill's per-item results are unknown for this step (its score was reused, not re-measured), and no earlier results exist, so flips cannot be shown."
              : `The current skill was not re-measured at this step (its score was reused), so flips are shown against its last known per-item results: ${currentFromStep === 0 ? "the baseline" : `step ${currentFromStep}`}.`}
          </Notice>
        </div>
      )}
      <div className="max-h-96 overflow-auto rounded-md border border-gray-200">
        <table className={TABLE} data-testid="selection-table">
          <thead className={THEAD}>
            <tr>
              <th className={TH}>Item</th>
              <th className={TH_NUM}>Current</th>
              <th className={TH_NUM}>Candidate</th>
              <th className={TH}>Change</th>
              <th className={TH}>Status</th>
              <th className={TH}>Prediction</th>
              <th className={TH}>Reference</th>
              <th className={TH}>Failure reason</th>
            </tr>
          </thead>
          <tbody>
            {visible.length === 0 && (
              <tr>
                <td colSpan={8} className="px-3 py-4 text-center text-gray-500">
                  {rows.length === 0
                    ? "No per-item selection results were stored for this step."
                    : "No items match this filter."}
                </td>
              </tr>
            )}
            {visible.slice(0, limit).map((r) => {
              const c = change(r);
              return (
                <tr
                  key={r.itemId}
                  data-flipped={r.flipped || undefined}
                  className={c === "fixed" ? "bg-green-50" : c === "broken" ? "bg-red-50" : ""}
                >
                  <td className={`${TD} font-mono text-xs`}>{r.itemId}</td>
                  <td className={TD_NUM}>{r.currentHard ?? "—"}</td>
                  <td className={TD_NUM}>{r.hard}</td>
                  <td className={TD}>
                    {c === "fixed" && <span className="font-medium text-green-700">↑ fixed</span>}
                    {c === "broken" && <span className="font-medium text-red-700">↓ broken</span>}
                  </td>
                  <td className={`${TD} text-xs ${r.status === "ok" ? "text-gray-600" : "font-medium text-amber-700"}`}>
                    {r.status}
                  </td>
                  <td className={`${TD} max-w-xs text-xs break-words`}>{r.prediction ?? "—"}</td>
                  <td className={`${TD} max-w-xs text-xs break-words text-gray-700`}>{r.reference ?? "—"}</td>
                  <td className={`${TD} max-w-xs text-xs break-words text-gray-600`}>{r.failReason ?? ""}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <ShowMore
          shown={Math.min(limit, visible.length)}
          total={visible.length}
          step={PAGE * 4}
          onChange={setLimit}
          noun="items"
        />
      </div>
    </section>
  );
}
