import type { BackendUsageRow } from "@/lib/contracts/api";
import { formatCost, formatCount } from "../format";
import { Card } from "../ui/Card";
import { TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "../ui/table";

const sumErrors = (e: Record<string, number>) => Object.values(e).reduce((a, b) => a + b, 0);
const errorTitle = (e: Record<string, number>) =>
  Object.entries(e)
    .map(([k, n]) => `${k}: ${n}`)
    .join(", ");

/** How the model calls went per role and stage: failures, retries, cache hits, latency and cost. */
export function BackendUsageTable({ rows }: { rows: BackendUsageRow[] }) {
  if (rows.length === 0) return null;
  return (
    <Card title="Model calls by role" bodyClassName="">
      <div className="overflow-x-auto">
        <table className={TABLE} data-testid="backend-usage-table">
          <thead className={THEAD}>
            <tr>
              <th className={TH}>Role · stage</th>
              <th className={TH_NUM}>Calls</th>
              <th className={TH_NUM}>Errors</th>
              <th className={TH_NUM}>Retries</th>
              <th className={TH_NUM}>Cached</th>
              <th className={TH_NUM}>Avg latency</th>
              <th className={TH_NUM}>Cost</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const errors = sumErrors(r.errors);
              const answered = Math.max(r.calls - r.cacheHits, 0);
              return (
                <tr key={`${r.role}-${r.stage}`}>
                  <td className={`${TD} font-mono text-xs`} title={`${r.backend} · ${r.model}`}>
                    {r.role} · {r.stage}
                  </td>
                  <td className={TD_NUM}>{formatCount(r.calls)}</td>
                  <td
                    className={`${TD_NUM} ${errors > 0 ? "text-red-700" : ""}`}
                    title={errorTitle(r.errors) || undefined}
                  >
                    {formatCount(errors)}
                  </td>
                  <td className={TD_NUM}>{formatCount(r.retries)}</td>
                  <td className={TD_NUM}>{formatCount(r.cacheHits)}</td>
                  <td className={TD_NUM}>{answered > 0 ? `${Math.round(r.latencyMs / answered)} ms` : "—"}</td>
                  <td
                    className={TD_NUM}
                    title={
                      r.cacheHits > 0 && r.costSavedUsd !== null
                        ? `${formatCost(r.costSavedUsd)} saved by the cache`
                        : undefined
                    }
                  >
                    {r.costUsd === null ? "unknown" : formatCost(r.costUsd)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
