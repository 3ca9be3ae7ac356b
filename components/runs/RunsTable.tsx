"use client";
import type { RunListItem } from "@/lib/contracts/api";
import { ButtonLink, Button } from "../ui/Button";
import { TABLE, THEAD, TH, TH_NUM } from "../ui/table";
import { useNow } from "../ui/use-now";
import { RunRow } from "./RunRow";

const COLUMNS: Array<{ label: string; num?: boolean; title?: string }> = [
  { label: "Status" },
  { label: "Name" },
  { label: "Benchmark" },
  { label: "Optimizer" },
  { label: "Target" },
  { label: "Selection", num: true, title: "Baseline → best selection score" },
  { label: "Best test", num: true, title: "Test score of the best skill" },
  { label: "Steps", num: true },
  { label: "Tokens", num: true, title: "Prompt + completion tokens, and cost when the price is known" },
  { label: "Started" },
  { label: "Duration", num: true },
];

export function RunsTable({
  runs,
  loading,
  filtered,
  selected,
  onToggle,
  onClearFilters,
}: {
  runs: RunListItem[];
  loading: boolean;
  filtered: boolean;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onClearFilters: () => void;
}) {
  const now = useNow(10_000);
  if (!loading && runs.length === 0) return <EmptyRuns filtered={filtered} onClearFilters={onClearFilters} />;
  return (
    <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white shadow-xs">
      <table className={TABLE} data-testid="runs-table">
        <thead className={THEAD}>
          <tr>
            <th className={`${TH} w-8`}>
              <span className="sr-only">Select</span>
            </th>
            {COLUMNS.map((c) => (
              <th key={c.label} className={c.num ? TH_NUM : TH} title={c.title}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <RunRow key={r.id} run={r} now={now} selected={selected.has(r.id)} onToggle={() => onToggle(r.id)} />
          ))}
          {loading && (
            <tr>
              <td colSpan={COLUMNS.length + 1} className="px-3 py-6 text-center text-gray-500">
                Loading runs…
              </td>
            </tr>
          )}
        </tbody>
      </table>
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
