"use client";
import { useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { formatP, verdictOf, type GateDecisionView, type RunEvidence } from "@/lib/contracts/evidence";
import { formatScore } from "../format";
import { api } from "../api-client";
import { useStepDetail } from "../runs/use-run";
import { ActionBadge } from "../ui/ActionBadge";
import { Card } from "../ui/Card";
import { Notice } from "../ui/Notice";
import { ROW, TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "../ui/table";
import { slowUpdatePairs, type PairedRow } from "./slow-update-pairs";

const signed = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}`;
const label = (d: GateDecisionView) =>
  d.kind === "step" ? `step ${d.step}` : d.kind === "slow_update" ? `slow update, epoch ${d.epoch}` : "final check";

/**
 * Every gate decision with its paired statistics; a step's or a slow update's row opens the per-item table
 * current vs candidate.
 */
export function GateEvidencePanel({ runId, evidence }: { runId: string; evidence: RunEvidence }) {
  const [open, setOpen] = useState<string | null>(null);
  const { decisions, noise } = evidence;
  return (
    <Card
      title="Gate evidence"
      testId="gate-evidence"
      actions={
        <span className="text-gray-500">
          paired difference (points), bootstrap 95 % interval, exact sign test · {evidence.selectionSize ?? "?"}{" "}
          selection items
        </span>
      }
      bodyClassName="space-y-3 p-3"
    >
      {evidence.smallSplitWarning && (
        <Notice tone="warn" title="Selection split too small" testId="small-split-warning">
          {evidence.smallSplitWarning}
        </Notice>
      )}
      {decisions.length === 0 ? (
        <p className="text-center text-gray-500">Gate decisions appear here as steps are decided.</p>
      ) : (
        <div className="max-h-[28rem] overflow-auto">
          <table className={TABLE}>
            <thead className={THEAD}>
              <tr>
                <th className={TH}>Gate</th>
                <th className={TH}>Decision</th>
                <th className={TH_NUM}>Paired</th>
                <th className={TH_NUM}>+ / −</th>
                <th className={TH_NUM}>Difference [95 % CI]</th>
                <th className={TH_NUM}>p</th>
                <th className={TH_NUM}>Min. detectable</th>
                <th className={TH}>Verdict</th>
              </tr>
            </thead>
            <tbody>
              {decisions.map((d) => {
                const key = `${d.kind}-${d.step}-${d.epoch}`;
                const ev = d.evidence;
                return (
                  <Fragment key={key}>
                    <tr
                      className={`${ROW} ${d.kind !== "final" ? "cursor-pointer" : ""}`}
                      data-testid="gate-evidence-row"
                      onClick={() => d.kind !== "final" && setOpen(open === key ? null : key)}
                    >
                      <td className={`${TD} whitespace-nowrap`}>{label(d)}</td>
                      <td className={TD}>
                        <ActionBadge action={d.action} />
                      </td>
                      <td className={TD_NUM}>{ev?.nPaired ?? "—"}</td>
                      <td className={TD_NUM}>{ev ? `${ev.improved} / ${ev.regressed}` : "—"}</td>
                      <td className={TD_NUM}>
                        {ev ? `${signed(ev.meanDiff)} [${signed(ev.ci95[0])}, ${signed(ev.ci95[1])}]` : "—"}
                      </td>
                      <td className={TD_NUM}>{ev ? formatP(ev.pValue) : "—"}</td>
                      <td className={TD_NUM}>
                        {ev ? (ev.minDetectableDiff === null ? "none" : signed(ev.minDetectableDiff)) : "—"}
                      </td>
                      <td className={`${TD} text-xs`}>{verdictOf(ev)}</td>
                    </tr>
                    {open === key && (
                      <tr>
                        <td colSpan={8} className="bg-gray-50 p-2">
                          {d.kind === "slow_update" ? (
                            <SlowUpdateItems runId={runId} step={d.step} />
                          ) : (
                            <PairedItems runId={runId} step={d.step} />
                          )}
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {noise.length > 0 && (
        <p className="text-xs text-gray-600" data-testid="noise-floor">
          A/A noise floor (current skill re-scored, nothing changed):{" "}
          {noise
            .map((n) =>
              n.high - n.low <= 1e-9
                ? `epoch ${n.epoch}: ${formatScore(n.low)} on every one of ${n.scores.length} repeats`
                : `epoch ${n.epoch}: ${formatScore(n.low)}–${formatScore(n.high)} (sd ${formatScore(n.sd)}, ${n.scores.length} repeats)`,
            )
            .join(" · ")}
          .{" "}
          {noise.every((n) => n.high - n.low <= 1e-9)
            ? "No run-to-run noise measured: deterministic target, so the band has no width."
            : "A gate gain inside this band is indistinguishable from the target's own noise."}
        </p>
      )}
    </Card>
  );
}

/** The per-item table behind a step's gate: current vs candidate on each selection item. */
function PairedItems({ runId, step }: { runId: string; step: number }) {
  const { data, isPending, error } = useStepDetail(runId, step);
  if (error) return <p className="text-xs text-red-700">{error.message}</p>;
  if (isPending || !data) return <p className="text-xs text-gray-500">Loading items…</p>;
  return <PairedTable rows={data.selection} />;
}

/** A slow-update gate's items: its candidate's stored rows against the current skill after step `step`. */
function SlowUpdateItems({ runId, step }: { runId: string; step: number }) {
  const detail = useStepDetail(runId, step);
  const slow = useQuery({
    queryKey: ["run", runId, "evals", step, "slow_update"],
    queryFn: () => api.listEvals(runId, { step, label: "slow_update" }),
  });
  const error = detail.error ?? slow.error;
  if (error) return <p className="text-xs text-red-700">{error.message}</p>;
  if (!detail.data || !slow.data) return <p className="text-xs text-gray-500">Loading items…</p>;
  return <PairedTable rows={slowUpdatePairs(detail.data, slow.data)} />;
}

function PairedTable({ rows }: { rows: readonly PairedRow[] }) {
  if (rows.length === 0) return <p className="text-xs text-gray-500">No per-item results at this step.</p>;
  return (
    <table className={TABLE} data-testid="paired-items">
      <thead className={THEAD}>
        <tr>
          <th className={TH}>Item</th>
          <th className={TH_NUM}>Current</th>
          <th className={TH_NUM}>Candidate</th>
          <th className={TH}>Change</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const diff = r.currentHard === null ? null : r.hard - r.currentHard;
          return (
            <tr key={r.itemId}>
              <td className={`${TD} font-mono text-xs`}>{r.itemId}</td>
              <td className={TD_NUM}>{r.currentHard === null ? "—" : formatScore(r.currentHard)}</td>
              <td className={TD_NUM}>{formatScore(r.hard)}</td>
              <td className={`${TD} text-xs`}>
                {r.status !== "ok"
                  ? `not answered (${r.status})`
                  : diff === null
                    ? "current unknown"
                    : diff > 0
                      ? "improved"
                      : diff < 0
                        ? "regressed"
                        : "same"}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
