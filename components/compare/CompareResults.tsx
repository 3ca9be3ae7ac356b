import type { CompareResponse } from "@/lib/contracts/api";
import { testGainOf } from "@/lib/contracts/run-list";
import { RUN_COLORS } from "../charts/chart-style";
import { formatCost, formatCount, formatDelta, formatScore } from "../format";
import { Card } from "../ui/Card";
import { TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "../ui/table";

/** Per run, beside the curves: selection and test scores (seed → best), test gain, tokens and cost. */
export function CompareResults({ runs }: { runs: CompareResponse["runs"] }) {
  return (
    <Card title="Scores, tokens and cost" bodyClassName="">
      <div className="overflow-x-auto">
        <table className={TABLE} data-testid="compare-results">
          <thead className={THEAD}>
            <tr>
              <th className={TH}>Run</th>
              <th className={TH_NUM} title="Seed skill → best skill, on the selection split">
                Selection
              </th>
              <th className={TH_NUM} title="Seed skill → best skill, on the test split">
                Test
              </th>
              <th className={TH_NUM}>Gain</th>
              <th className={TH_NUM} title="Prompt + completion tokens, and model calls">
                Tokens
              </th>
              <th className={TH_NUM}>Cost</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r, i) => {
              const gain = testGainOf(r);
              return (
                <tr key={r.id} className="hover:bg-gray-50" data-testid={`compare-result-${r.id}`}>
                  <td className={`${TD} max-w-40 truncate`} title={r.name}>
                    <span
                      className="mr-1.5 inline-block size-2 rounded-full"
                      style={{ background: RUN_COLORS[i % RUN_COLORS.length] }}
                      aria-hidden
                    />
                    {r.name || r.id.slice(0, 8)}
                  </td>
                  <td className={TD_NUM}>
                    <span className="text-gray-500">{formatScore(r.baselineScore)}</span> → {formatScore(r.bestScore)}
                  </td>
                  <td className={TD_NUM}>
                    <span className="text-gray-500">{formatScore(r.testInitial)}</span> → {formatScore(r.testBest)}
                  </td>
                  <td
                    className={`${TD_NUM} ${gain === null ? "text-gray-400" : gain > 0 ? "text-green-700" : gain < 0 ? "text-red-700" : ""}`}
                  >
                    {formatDelta(gain)}
                  </td>
                  <td className={TD_NUM}>
                    {formatCount(r.promptTokens + r.completionTokens)}
                    <div className="text-xs text-gray-500">{formatCount(r.calls)} calls</div>
                  </td>
                  <td className={TD_NUM}>{r.costUsd === null ? "—" : formatCost(r.costUsd)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
