import type { UsageRow } from "@/lib/contracts/api";
import { formatCost, formatCount } from "../format";
import { Card } from "../ui/Card";
import { TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "../ui/table";

/** Calls and tokens per pipeline stage (rollout, reflect, merge, rank, rewrite, slow update …). */
export function UsageTable({ usage, costUsd }: { usage: UsageRow[]; costUsd: number | null }) {
  const total = usage.reduce(
    (a, u) => ({ calls: a.calls + u.calls, p: a.p + u.promptTokens, c: a.c + u.completionTokens }),
    { calls: 0, p: 0, c: 0 },
  );
  const sorted = [...usage].sort((a, b) => b.promptTokens + b.completionTokens - (a.promptTokens + a.completionTokens));
  return (
    <Card
      title="Tokens by stage"
      actions={<span className="text-gray-600">cost {costUsd === null ? "unknown" : formatCost(costUsd)}</span>}
      bodyClassName=""
    >
      {usage.length === 0 ? (
        <p className="px-3 py-4 text-center text-gray-500">No model calls recorded yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className={TABLE} data-testid="usage-table">
            <thead className={THEAD}>
              <tr>
                <th className={TH}>Stage</th>
                <th className={TH_NUM}>Calls</th>
                <th className={TH_NUM}>Prompt</th>
                <th className={TH_NUM}>Completion</th>
                <th className={TH_NUM}>Share</th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((u) => {
                const t = u.promptTokens + u.completionTokens;
                const share = total.p + total.c > 0 ? (t / (total.p + total.c)) * 100 : 0;
                return (
                  <tr key={u.stage}>
                    <td className={`${TD} font-mono text-xs`}>{u.stage}</td>
                    <td className={TD_NUM}>{formatCount(u.calls)}</td>
                    <td className={TD_NUM}>{formatCount(u.promptTokens)}</td>
                    <td className={TD_NUM}>{formatCount(u.completionTokens)}</td>
                    <td className={TD_NUM}>{share.toFixed(0)}%</td>
                  </tr>
                );
              })}
              <tr className="font-medium">
                <td className={TD}>Total</td>
                <td className={TD_NUM}>{formatCount(total.calls)}</td>
                <td className={TD_NUM}>{formatCount(total.p)}</td>
                <td className={TD_NUM}>{formatCount(total.c)}</td>
                <td className={TD_NUM} />
              </tr>
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
