"use client";
import type { Estimate } from "@/lib/contracts/api";
import { formatCost, formatCount } from "../format";
import { LeakagePanel } from "../evidence/LeakagePanel";
import { DatasetHashes } from "../runs/DatasetHashes";
import { TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "../ui/table";

/** Pre-flight calls / tokens per phase and the cost (or "unknown" when a model has no known price). */
export function EstimatePanel({
  estimate,
  loading,
  stale,
  error,
  blocked,
}: {
  estimate: Estimate | undefined;
  loading: boolean;
  stale: boolean;
  error: string | null;
  blocked: boolean;
}) {
  if (blocked) return <p className="p-3 text-xs text-gray-600">Fix the highlighted fields to see the estimate.</p>;
  if (error && !estimate)
    return (
      <p className="p-3 text-xs text-red-700" role="alert">
        Estimate unavailable: {error}
      </p>
    );
  if (!estimate)
    return <p className="p-3 text-xs text-gray-500">{loading ? "Estimating…" : "Estimate unavailable."}</p>;
  return (
    <div className={stale ? "opacity-60 transition-opacity" : ""} data-testid="estimate">
      <div className="grid grid-cols-3 divide-x divide-gray-100 border-b border-gray-100 text-center">
        <div className="p-2">
          <div className="text-[11px] text-gray-500">Calls</div>
          <div className="font-semibold tabular-nums">{formatCount(estimate.totalCalls)}</div>
        </div>
        <div className="p-2">
          <div className="text-[11px] text-gray-500">Tokens</div>
          <div className="font-semibold tabular-nums">{formatCount(estimate.totalTokens)}</div>
        </div>
        <div className="p-2">
          <div className="text-[11px] text-gray-500">Cost</div>
          <div
            className="font-semibold tabular-nums"
            title={estimate.costUsd === null ? "No price is known for a model in use" : undefined}
          >
            {estimate.costUsd === null ? "unknown" : formatCost(estimate.costUsd)}
          </div>
        </div>
      </div>
      <table className={TABLE}>
        <thead className={THEAD}>
          <tr>
            <th className={TH}>Phase</th>
            <th className={TH_NUM}>Calls</th>
            <th className={TH_NUM}>Tokens in / out</th>
          </tr>
        </thead>
        <tbody>
          {estimate.phases.map((p) => (
            <tr key={p.phase}>
              <td className={`${TD} text-xs`}>{p.phase}</td>
              <td className={TD_NUM}>{formatCount(p.calls)}</td>
              <td className={`${TD_NUM} text-xs`}>
                {formatCount(p.promptTokens)} / {formatCount(p.completionTokens)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="space-y-1 p-3 text-[11px] text-gray-600">
        <p>
          Splits: train {estimate.splitSizes.train} · selection {estimate.splitSizes.val} · test{" "}
          {estimate.splitSizes.test}
        </p>
        {estimate.dataset && <DatasetHashes dataset={estimate.dataset} />}
        {estimate.splitWarning && (
          <p className="font-medium text-amber-800" data-testid="estimate-split-warning">
            {estimate.splitWarning}
          </p>
        )}
        {estimate.leakage && <LeakagePanel report={estimate.leakage} />}
        {estimate.notes.map((n) => (
          <p key={n}>{n}</p>
        ))}
        {error && <p className="text-red-700">Latest change: {error}</p>}
      </div>
    </div>
  );
}
