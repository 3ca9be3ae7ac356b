"use client";
import { useState } from "react";
import type { RunListItem } from "@/lib/contracts/api";
import type { RunSortKey } from "@/lib/contracts/run-list";
import { ButtonLink, Button } from "../ui/Button";
import { TABLE, THEAD, TH_TIGHT, TH_TIGHT_NUM } from "../ui/table";
import { useAfterFirstPaint } from "../ui/first-paint";
import { useNow } from "../ui/use-now";
import { DeleteRunDialog } from "./DeleteRunDialog";
import { RunAnnotationsDialog } from "./RunAnnotationsDialog";
import { RunRow } from "./RunRow";
import { FIRST_PAINT_ROWS, type RunsView } from "./runs-view";

const COLUMNS: Array<{ label: string; sort: RunSortKey; num?: boolean; title?: string }> = [
  { label: "Status", sort: "status" },
  { label: "Name", sort: "name", title: "Name, tags and note" },
  { label: "Benchmark", sort: "env" },
  { label: "Optimizer", sort: "optimizer" },
  { label: "Target", sort: "target" },
  { label: "Selection", sort: "selection", num: true, title: "Baseline → best selection score (sorts by best)" },
  { label: "Best test", sort: "testBest", num: true, title: "Test score of the best skill" },
  { label: "Test gain", sort: "testGain", num: true, title: "Best skill's test score minus the seed skill's" },
  { label: "Steps", sort: "steps", num: true },
  { label: "Tokens", sort: "tokens", num: true, title: "Prompt + completion tokens" },
  { label: "Cost", sort: "cost", num: true, title: "Cost in USD when every model's price is known" },
  { label: "Started", sort: "started" },
  { label: "Duration", sort: "duration", num: true },
];

type Dialog = { kind: "annotate" | "delete"; run: RunListItem } | null;

export function RunsTable({
  runs,
  loading,
  filtered,
  view,
  now: start,
  onSort,
  selected,
  onToggle,
  onClearFilters,
}: {
  runs: RunListItem[];
  loading: boolean;
  filtered: boolean;
  view: RunsView;
  /** The time the server rendered the rows at, so relative times hydrate unchanged. */
  now?: number;
  onSort: (key: RunSortKey) => void;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onClearFilters: () => void;
}) {
  const now = useNow(10_000, start);
  const [dialog, setDialog] = useState<Dialog>(null);
  const painted = useAfterFirstPaint();
  const shown = painted ? runs : runs.slice(0, FIRST_PAINT_ROWS);
  if (!loading && runs.length === 0) return <EmptyRuns filtered={filtered} onClearFilters={onClearFilters} />;
  return (
    <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white shadow-xs">
      <table className={TABLE} data-testid="runs-table">
        <thead className={THEAD}>
          <tr>
            <th className={`${TH_TIGHT} w-8`}>
              <span className="sr-only">Select</span>
            </th>
            {COLUMNS.map((c) => {
              const active = view.sort === c.sort;
              return (
                <th
                  key={c.label}
                  className={c.num ? TH_TIGHT_NUM : TH_TIGHT}
                  title={c.title}
                  aria-sort={active ? (view.dir === "asc" ? "ascending" : "descending") : undefined}
                >
                  <button
                    type="button"
                    className={`inline-flex items-center gap-0.5 hover:text-gray-900 ${active ? "text-gray-900" : ""}`}
                    onClick={() => onSort(c.sort)}
                    data-testid={`sort-${c.sort}`}
                  >
                    {c.label}
                    <span aria-hidden className={active ? "" : "text-gray-300"}>
                      {active ? (view.dir === "asc" ? "▲" : "▼") : "↕"}
                    </span>
                  </button>
                </th>
              );
            })}
            <th className={TH_TIGHT}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <RunRow
              key={r.id}
              run={r}
              now={now}
              selected={selected.has(r.id)}
              onToggle={() => onToggle(r.id)}
              onAnnotate={() => setDialog({ kind: "annotate", run: r })}
              onDelete={() => setDialog({ kind: "delete", run: r })}
            />
          ))}
          {loading && runs.length === 0 && (
            <tr>
              <td colSpan={COLUMNS.length + 2} className="px-3 py-6 text-center text-gray-500">
                Loading runs…
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {dialog?.kind === "annotate" && <RunAnnotationsDialog run={dialog.run} onClose={() => setDialog(null)} />}
      {dialog?.kind === "delete" && <DeleteRunDialog run={dialog.run} onClose={() => setDialog(null)} />}
    </div>
  );
}

function EmptyRuns({ filtered, onClearFilters }: { filtered: boolean; onClearFilters: () => void }) {
  return (
    <div
      className="rounded-lg border border-dashed border-gray-300 bg-white px-6 py-12 text-center"
      data-testid="runs-empty"
    >
      {filtered ? (
        <>
          <p className="font-medium text-gray-900">No runs match these filters.</p>
          <Button className="mt-4" onClick={onClearFilters}>
            Clear filters
          </Button>
        </>
      ) : (
        <>
          <p className="font-medium text-gray-900">No runs yet</p>
          <p className="mx-auto mt-1 max-w-md text-gray-600">
            Start a training run from a preset. The sample presets run offline with the simulated model, so you can
            watch the whole loop without an API key.
          </p>
          <ButtonLink href="/runs/new" variant="primary" className="mt-4">
            Start your first run
          </ButtonLink>
        </>
      )}
    </div>
  );
}
