"use client";
import { Fragment, useMemo, useState } from "react";
import { filterProposals, PROPOSAL_STATUSES, type ProposalFilter, type ProposalRow } from "@/lib/contracts/evidence";
import { Card } from "../ui/Card";
import { ROW, TABLE, TD, TH, THEAD } from "../ui/table";
import { ProposalEvidence } from "./ProposalEvidence";

const SELECT = "rounded border border-gray-300 bg-white px-2 py-1 text-xs";
const STATUS_TONE: Record<string, string> = {
  accepted: "text-green-700",
  rejected: "text-red-700",
  skipped: "text-amber-700",
};
const uniq = (xs: string[]) => [...new Set(xs)].sort();

/** The merged edit a proposal went into: recorded by the engine, or (older runs) a guess by words, said so. */
function MergedCell({ row }: { row: ProposalRow }) {
  if (row.mergedAs === null) return <>—</>;
  const others = row.mergedInto.filter((i) => i !== row.mergedAs);
  return (
    <span data-testid="merged-into">
      #{row.mergedAs}
      {others.length > 0 && (
        <span className="text-gray-500" title={`also combined into ${others.map((i) => `#${i}`).join(", ")}`}>
          {" "}
          (+{others.length})
        </span>
      )}
      {row.mergeGuessed && (
        <span className="text-amber-700" title="Run stored before merges were recorded: matched by words">
          {" "}
          guess
        </span>
      )}
    </span>
  );
}

/** Every edit proposed in the run, followed to the gate, filterable; a row opens the trajectories it read. */
export function ProposalExplorer({ runId, rows }: { runId: string; rows: ProposalRow[] }) {
  const [f, setF] = useState<ProposalFilter>({});
  const [open, setOpen] = useState<string | null>(null);
  const shown = useMemo(() => filterProposals(rows, f), [rows, f]);
  const ops = useMemo(() => uniq(rows.map((r) => r.op)), [rows]);
  const origins = useMemo(() => uniq(rows.map((r) => r.origin)), [rows]);
  const steps = useMemo(() => [...new Set(rows.map((r) => r.step))], [rows]);
  const set = (patch: ProposalFilter) => setF((x) => ({ ...x, ...patch }));
  return (
    <Card
      title="Proposal explorer"
      testId="proposal-explorer"
      actions={
        <span className="text-gray-500" data-testid="proposal-count">
          {shown.length} of {rows.length} proposed edits
        </span>
      }
      bodyClassName="space-y-2 p-3"
    >
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Filters">
        <select
          aria-label="Status"
          className={SELECT}
          value={f.status ?? ""}
          onChange={(e) => set({ status: e.target.value as ProposalFilter["status"] })}
        >
          <option value="">any status</option>
          {PROPOSAL_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replaceAll("_", " ")}
            </option>
          ))}
        </select>
        <select aria-label="Op" className={SELECT} value={f.op ?? ""} onChange={(e) => set({ op: e.target.value })}>
          <option value="">any op</option>
          {ops.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
        <select
          aria-label="Origin"
          className={SELECT}
          value={f.origin ?? ""}
          onChange={(e) => set({ origin: e.target.value })}
        >
          <option value="">any origin</option>
          {origins.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
        <select
          aria-label="Step"
          className={SELECT}
          value={f.step ?? ""}
          onChange={(e) => set({ step: e.target.value === "" ? null : Number(e.target.value) })}
        >
          <option value="">any step</option>
          {steps.map((s) => (
            <option key={s} value={s}>
              step {s}
            </option>
          ))}
        </select>
        <input
          aria-label="Search edits"
          placeholder="search text…"
          className={`${SELECT} w-56`}
          value={f.text ?? ""}
          onChange={(e) => set({ text: e.target.value })}
        />
      </div>
      <div className="max-h-[32rem] overflow-auto">
        <table className={TABLE}>
          <thead className={THEAD}>
            <tr>
              <th className={TH}>Step</th>
              <th className={TH}>Origin · op</th>
              <th className={TH}>Edit</th>
              <th className={TH}>Merged → selected → applied</th>
              <th className={TH}>Status</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <Fragment key={r.key}>
                <tr
                  className={`${ROW} cursor-pointer`}
                  data-testid="proposal-row"
                  onClick={() => setOpen(open === r.key ? null : r.key)}
                >
                  <td className={`${TD} tabular-nums`}>{r.step}</td>
                  <td className={`${TD} text-xs whitespace-nowrap`}>
                    {r.origin} · <span className="font-mono">{r.op}</span>
                  </td>
                  <td className={`${TD} max-w-xl text-xs`}>
                    <div className="line-clamp-2 font-mono">{r.content ?? r.target ?? "—"}</div>
                    {r.shaped && (
                      <button
                        type="button"
                        className="text-indigo-700 hover:underline"
                        onClick={(e) => (e.stopPropagation(), set({ step: r.shaped!.step, status: "" }))}
                      >
                        fed back → shaped an edit at step {r.shaped.step}
                      </button>
                    )}
                    {r.shapedBy && (
                      <div className="text-gray-500">follows up on a rejected edit of step {r.shapedBy.step}</div>
                    )}
                  </td>
                  <td className={`${TD} text-xs whitespace-nowrap`}>
                    <MergedCell row={r} /> → {r.selectedAs === null ? "—" : `#${r.selectedAs}`} → {r.applyStatus ?? "—"}
                  </td>
                  <td className={`${TD} text-xs font-medium ${STATUS_TONE[r.status] ?? "text-gray-600"}`}>
                    {r.status.replaceAll("_", " ")}
                  </td>
                </tr>
                {open === r.key && (
                  <tr>
                    <td colSpan={5} className="bg-gray-50 p-2">
                      <ProposalEvidence runId={runId} row={r} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
        {shown.length === 0 && (
          <p className="py-4 text-center text-gray-500">No proposed edit matches these filters.</p>
        )}
      </div>
    </Card>
  );
}
