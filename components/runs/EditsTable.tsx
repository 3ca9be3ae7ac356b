"use client";
import { useMemo, useState } from "react";
import type { EditRow } from "@/lib/contracts/api";
import { Badge, type Tone } from "../ui/Badge";
import { TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "../ui/table";

const STAGES = ["selected", "merged", "proposed"] as const;
const STAGE_HELP: Record<string, string> = {
  proposed: "raw patches from the failure and success analysts",
  merged: "after aggregation (similar edits merged)",
  selected: "the edits that fit the step's budget, then applied and gated",
};

function statusTone(s: string): Tone {
  if (s.startsWith("applied") || s === "accepted") return "green";
  if (s === "rejected" || s.startsWith("fail") || s.startsWith("error")) return "red";
  return "amber";
}

/** The step's edits through the pipeline (proposed → merged → selected), with apply and gate outcome. */
export function EditsTable({ edits }: { edits: EditRow[] }) {
  const byStage = useMemo(() => groupByStage(edits), [edits]);
  const firstNonEmpty = STAGES.find((s) => (byStage[s]?.length ?? 0) > 0) ?? "selected";
  const [stage, setStage] = useState<string | null>(null);
  const active = stage ?? firstNonEmpty;
  const rows = byStage[active] ?? [];
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());

  return (
    <section aria-label="Edits">
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">Edits</h3>
        <div role="tablist" className="flex rounded-md border border-gray-200 bg-gray-50 p-0.5 text-xs">
          {STAGES.map((s) => (
            <button
              key={s}
              type="button"
              role="tab"
              aria-selected={active === s}
              onClick={() => setStage(s)}
              className={`rounded px-2 py-0.5 ${active === s ? "bg-white font-medium shadow-xs" : "text-gray-600 hover:text-gray-900"}`}
            >
              {s} ({byStage[s]?.length ?? 0})
            </button>
          ))}
        </div>
        <span className="text-xs text-gray-500">{STAGE_HELP[active]}</span>
      </div>
      <div className="max-h-96 overflow-auto rounded-md border border-gray-200">
        <table className={TABLE} data-testid="edits-table">
          <thead className={THEAD}>
            <tr>
              <th className={TH_NUM}>#</th>
              <th className={TH}>Op</th>
              <th className={TH}>Target</th>
              <th className={TH}>Content</th>
              <th className={TH}>Rationale</th>
              <th className={TH_NUM}>Support</th>
              <th className={TH}>Origin</th>
              <th className={TH}>Apply</th>
              <th className={TH}>Gate</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={9} className="px-3 py-4 text-center text-gray-500">
                  No {active} edits at this step.
                </td>
              </tr>
            )}
            {rows.map((e) => {
              const key = `${e.stage}:${e.ord}`;
              const expanded = open.has(key);
              const clamp = expanded ? "" : "line-clamp-3";
              return (
                <tr
                  key={e.ord}
                  className="cursor-pointer align-top hover:bg-gray-50"
                  title={expanded ? "Click to collapse" : "Click to show the full text"}
                  onClick={() => setOpen((p) => toggled(p, key))}
                >
                  <td className={TD_NUM}>{e.ord + 1}</td>
                  <td className={`${TD} font-mono text-xs`}>{e.op}</td>
                  <td className={`${TD} max-w-48 text-xs`}>
                    <div className={`${clamp} whitespace-pre-wrap break-words`}>{e.target ?? "—"}</div>
                  </td>
                  <td className={`${TD} max-w-md font-mono text-xs`}>
                    <div className={`${clamp} whitespace-pre-wrap break-words`}>{e.content ?? "—"}</div>
                  </td>
                  <td className={`${TD} max-w-xs text-xs text-gray-700`}>
                    <div className={`${clamp} whitespace-pre-wrap break-words`}>{e.rationale ?? "—"}</div>
                  </td>
                  <td className={TD_NUM}>{e.support ?? "—"}</td>
                  <td className={`${TD} text-xs`}>
                    {e.origin}
                    {e.mergeLevel !== null ? ` · L${e.mergeLevel}` : ""}
                  </td>
                  <td className={TD}>
                    {e.applyStatus ? (
                      <Badge tone={statusTone(e.applyStatus)}>{e.applyStatus}</Badge>
                    ) : (
                      <span className="text-gray-400">—</span>
                    )}
                  </td>
                  <td className={TD}>
                    {e.gateStatus ? (
                      <Badge tone={statusTone(e.gateStatus)}>{e.gateStatus}</Badge>
                    ) : (
                      <span className="text-gray-400">—</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

// Object.groupBy is missing in Node 20, where client components are pre-rendered.
function groupByStage(edits: EditRow[]): Record<string, EditRow[]> {
  const out: Record<string, EditRow[]> = {};
  for (const e of edits) (out[e.stage] ??= []).push(e);
  return out;
}

function toggled(set: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(set);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}
