"use client";
import { useDeferredValue, useMemo, useState } from "react";
import type { ItemHistoryResponse, ItemSplit, ResultCode } from "@/lib/contracts/item-history";
import { Card } from "../ui/Card";
import { Notice } from "../ui/Notice";
import { ShowMore } from "../ui/ShowMore";
import { TABLE, TD, TH, THEAD } from "../ui/table";
import { ItemChanges } from "./ItemChanges";
import { CODE_WORD, ItemStrip } from "./ItemStrip";
import { CODE_FILL } from "./strip-pixels";
import { filterItems, latestResult } from "./item-filter";
import { useItemHistory } from "./review-api";

const PAGE = 100;
const SPLITS: Array<{ key: ItemSplit; label: string }> = [
  { key: "selection", label: "Selection items" },
  { key: "train", label: "Train items" },
];
const PILL = "rounded border px-2 py-0.5";
const pill = (on: boolean) =>
  `${PILL} ${on ? "border-indigo-300 bg-indigo-50 text-indigo-800" : "border-gray-200 text-gray-600 hover:bg-gray-50"}`;

/**
 * Every selection or train item across the run: its result at every evaluation, where the current skill's
 * result was fixed or broken, with search and filters. Loaded when opened (it reads every per-item row).
 */
export function ItemHistory({
  runId,
  stepsDone,
  onSelectStep,
}: {
  runId: string;
  stepsDone: number;
  onSelectStep: (step: number) => void;
}) {
  const [open, setOpen] = useState(false);
  const [split, setSplit] = useState<ItemSplit>("selection");
  const { data, error, isPending } = useItemHistory(runId, split, open, stepsDone);
  return (
    <Card
      title="Item history"
      testId="item-history"
      actions={
        <>
          {open &&
            SPLITS.map((s) => (
              <button
                key={s.key}
                type="button"
                aria-pressed={split === s.key}
                className={pill(split === s.key)}
                onClick={() => setSplit(s.key)}
              >
                {s.label}
              </button>
            ))}
          <button
            type="button"
            className="font-medium text-indigo-700 hover:underline"
            aria-expanded={open}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? "Hide" : "Show every item across the run"}
          </button>
        </>
      }
      bodyClassName={open ? "p-3" : "hidden"}
    >
      {open &&
        (error && !data ? (
          <Notice tone="error">Could not load the item history: {error.message}</Notice>
        ) : isPending || !data ? (
          <p className="py-4 text-center text-gray-500">Loading every item’s results…</p>
        ) : (
          <ItemHistoryBody key={data.split} data={data} onSelectStep={onSelectStep} />
        ))}
    </Card>
  );
}

function ItemHistoryBody({ data, onSelectStep }: { data: ItemHistoryResponse; onSelectStep: (s: number) => void }) {
  const [query, setQuery] = useState("");
  const [failuresOnly, setFailuresOnly] = useState(false);
  const [changedOnly, setChangedOnly] = useState(false);
  const [limit, setLimit] = useState(PAGE);
  const q = useDeferredValue(query);
  const visible = useMemo(
    () => filterItems(data.items, { query: q, failuresOnly, changedOnly }),
    [data.items, q, failuresOnly, changedOnly],
  );
  const reused = data.evaluations.filter((e) => e.source === "reused").length;
  const lastKnown = data.evaluations.filter((e) => e.source === "last_known").length;
  const what =
    data.split === "selection"
      ? `${data.evaluations.length} evaluations (the baseline, every scored candidate and slow-update gate)`
      : `${data.evaluations.length} train rollouts (each step's batch)`;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-xs">
        <input
          type="search"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setLimit(PAGE);
          }}
          placeholder="Search id, reference or prediction"
          aria-label="Search items"
          className="w-64 rounded border border-gray-300 px-2 py-1 text-sm"
        />
        <label className="flex items-center gap-1">
          <input type="checkbox" checked={failuresOnly} onChange={(e) => setFailuresOnly(e.target.checked)} />
          Failures only
        </label>
        <label className="flex items-center gap-1">
          <input type="checkbox" checked={changedOnly} onChange={(e) => setChangedOnly(e.target.checked)} />
          Changed only
        </label>
        <span className="text-gray-600 tabular-nums" data-testid="item-history-count">
          {visible.length} of {data.items.length} items · {what}
          {reused > 0 && ` · ${reused} reused from the cache (same skill)`}
          {lastKnown > 0 && ` · ${lastKnown} cached without stored rows (last known results shown)`}
        </span>
      </div>
      <Legend split={data.split} />
      <div className="max-h-[32rem] overflow-auto rounded-md border border-gray-200">
        <table className={TABLE} data-testid="item-history-table">
          <thead className={THEAD}>
            <tr>
              <th className={TH}>Item</th>
              <th className={`${TH} w-1/3`}>Across the run</th>
              <th className={TH}>Now</th>
              <th className={TH}>{data.split === "selection" ? "Fixed / broken by" : "Changed at"}</th>
              <th className={TH}>Reference</th>
              <th className={TH}>Last measured prediction</th>
            </tr>
          </thead>
          <tbody>
            {visible.length === 0 && (
              <tr>
                <td colSpan={6} className="px-3 py-4 text-center text-gray-500">
                  {data.items.length === 0 ? "No per-item results were stored for this split yet." : "No item matches."}
                </td>
              </tr>
            )}
            {visible.slice(0, limit).map((r) => {
              const now = latestResult(r);
              return (
                <tr key={r.id} data-testid="item-history-row">
                  <td className={`${TD} font-mono text-xs`}>{r.id}</td>
                  <td className={TD}>
                    <ItemStrip
                      current={r.current}
                      cells={r.cells}
                      evaluations={data.evaluations}
                      onPick={onSelectStep}
                    />
                  </td>
                  <td className={`${TD} text-xs whitespace-nowrap`} style={{ color: textColor(now) }}>
                    {CODE_WORD[now]}
                  </td>
                  <td className={`${TD} text-xs`}>
                    <ItemChanges changes={r.changes} onPick={onSelectStep} />
                  </td>
                  <td className={`${TD} max-w-48 text-xs break-words text-gray-700`}>{r.reference ?? "—"}</td>
                  <td className={`${TD} max-w-48 text-xs break-words`}>{r.lastPrediction ?? "—"}</td>
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
    </div>
  );
}

const textColor = (c: ResultCode) => ({ "1": "#047857", "0": "#b91c1c", e: "#b45309", ".": "#6b7280" })[c];

function Legend({ split }: { split: ItemSplit }) {
  return (
    <p className="flex flex-wrap items-center gap-x-3 text-xs text-gray-600">
      {(["1", "0", "e", "."] as const).map((c) => (
        <span key={c} className="flex items-center gap-1">
          <span className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: CODE_FILL[c] }} />
          {CODE_WORD[c]}
        </span>
      ))}
      <span>
        {split === "selection"
          ? "Thick band: the current skill (changes only when a candidate is accepted). Thin band: what each candidate scored. Click a band or a step to open that step."
          : "Thick band: the last result seen for the item. Thin band: the batches it was in. Click to open that step."}
      </span>
    </p>
  );
}
