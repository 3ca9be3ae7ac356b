import type { CompareResponse } from "@/lib/contracts/api";
import { Card } from "../ui/Card";
import { TABLE, TD, TH, THEAD } from "../ui/table";
import { RUN_COLORS } from "../charts/chart-style";

/** Only the config keys whose values differ between the runs. */
export function ConfigDiffTable({
  runs,
  diff,
}: {
  runs: CompareResponse["runs"];
  diff: CompareResponse["configDiff"];
}) {
  return (
    <Card title={`Config differences (${diff.length} key${diff.length === 1 ? "" : "s"})`} bodyClassName="">
      {diff.length === 0 ? (
        <p className="px-3 py-4 text-center text-gray-500" data-testid="config-diff">
          These runs use the same configuration.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className={TABLE} data-testid="config-diff">
            <thead className={THEAD}>
              <tr>
                <th className={TH}>Key</th>
                {runs.map((r, i) => (
                  <th key={r.id} className={TH}>
                    <span
                      className="mr-1 inline-block size-2 rounded-full"
                      style={{ background: RUN_COLORS[i % RUN_COLORS.length] }}
                      aria-hidden
                    />
                    {r.name || r.id.slice(0, 8)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {diff.map((d) => (
                <tr key={d.key} className="hover:bg-gray-50">
                  <td className={`${TD} font-mono text-xs`}>{d.key}</td>
                  {d.values.map((v, i) => (
                    <td key={i} className={`${TD} max-w-xs font-mono text-xs break-words`}>
                      {v === "" ? <span className="text-gray-400">(empty)</span> : v}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
