"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../api-client";
import { formatScore } from "../format";
import { queryKeys } from "../query-keys";
import { ShowMore } from "../ui/ShowMore";
import { TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "../ui/table";

const PAGE = 100;

/** The step's train rollout, item by item, with each trajectory one click away (loaded on demand). */
export function RolloutTable({ runId, step }: { runId: string; step: number }) {
  const [open, setOpen] = useState(false);
  const [limit, setLimit] = useState(PAGE);
  const [expanded, setExpanded] = useState<string | null>(null);
  const q = useQuery({
    queryKey: queryKeys.evals(runId, step, "rollout"),
    queryFn: () => api.listEvals(runId, { step, label: "rollout" }),
    enabled: open,
    staleTime: Infinity, // a committed step's rollout never changes
  });
  const rows = q.data ?? [];
  return (
    <section aria-label="Train rollout items">
      <button
        type="button"
        className="flex items-center gap-2 text-sm font-semibold hover:text-indigo-700"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <span className={`text-xs text-gray-400 transition-transform ${open ? "rotate-90" : ""}`} aria-hidden>
          ▶
        </span>
        Train rollout items
        {q.data && (
          <span className="text-xs font-normal text-gray-600">
            correct {rows.filter((r) => r.hard >= 1).length}/{rows.length}
          </span>
        )}
      </button>
      {open && (
        <div className="mt-2 max-h-96 overflow-auto rounded-md border border-gray-200">
          {q.error && <p className="p-3 text-xs text-red-700">Could not load the rollout: {q.error.message}</p>}
          {q.isPending && <p className="p-3 text-xs text-gray-500">Loading the rollout of step {step}…</p>}
          {q.data && (
            <table className={TABLE} data-testid="rollout-table">
              <thead className={THEAD}>
                <tr>
                  <th className={TH}>Item</th>
                  <th className={TH_NUM}>Hard</th>
                  <th className={TH_NUM}>Soft</th>
                  <th className={TH}>Status</th>
                  <th className={TH}>Prediction</th>
                  <th className={TH}>Reference</th>
                  <th className={TH}>Failure reason</th>
                  <th className={TH}>Trajectory</th>
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 && (
                  <tr>
                    <td colSpan={8} className="px-3 py-4 text-center text-gray-500">
                      No rollout results were stored for this step.
                    </td>
                  </tr>
                )}
                {rows.slice(0, limit).flatMap((r) => [
                  <tr key={r.itemId} className={r.status !== "ok" ? "bg-amber-50" : r.hard >= 1 ? "" : "bg-red-50/50"}>
                    <td className={`${TD} font-mono text-xs`}>{r.itemId}</td>
                    <td className={TD_NUM}>{r.hard}</td>
                    <td className={TD_NUM}>{formatScore(r.soft)}</td>
                    <td className={`${TD} text-xs`}>{r.status}</td>
                    <td className={`${TD} max-w-xs text-xs break-words`}>{r.prediction ?? "—"}</td>
                    <td className={`${TD} max-w-xs text-xs break-words text-gray-700`}>{r.reference ?? "—"}</td>
                    <td className={`${TD} max-w-xs text-xs break-words text-gray-600`}>{r.failReason ?? ""}</td>
                    <td className={TD}>
                      {r.trajectory ? (
                        <button
                          type="button"
                          className="text-xs text-indigo-700 hover:underline"
                          onClick={() => setExpanded((e) => (e === r.itemId ? null : r.itemId))}
                        >
                          {expanded === r.itemId ? "Hide" : "Show"}
                        </button>
                      ) : (
                        <span className="text-xs text-gray-400">—</span>
                      )}
                    </td>
                  </tr>,
                  expanded === r.itemId && (
                    <tr key={`${r.itemId}-t`}>
                      <td colSpan={8} className="border-b border-gray-100 bg-gray-50 px-3 py-2">
                        <pre className="max-h-72 overflow-auto font-mono text-xs whitespace-pre-wrap text-gray-800">
                          {r.trajectory}
                        </pre>
                      </td>
                    </tr>
                  ),
                ])}
              </tbody>
            </table>
          )}
          <ShowMore
            shown={Math.min(limit, rows.length)}
            total={rows.length}
            step={PAGE * 4}
            onChange={setLimit}
            noun="items"
          />
        </div>
      )}
    </section>
  );
}
