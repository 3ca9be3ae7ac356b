import { formatScore } from "@/components/format";
import { Badge, type Tone } from "@/components/ui/Badge";
import { ROW, TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "@/components/ui/table";
import type { SleepGateRowView } from "@/lib/contracts/sleep";

const TONE: Record<string, Tone> = { improved: "green", regressed: "red", unchanged: "gray" };

/** Each validation task's score before and after each gated candidate of the night. */
export function GateTable({ rows }: { rows: SleepGateRowView[] }) {
  if (rows.length === 0)
    return <p className="p-3 text-gray-500">No gated candidate this night (no tasks, or no edits to try).</p>;
  const count = (s: string) => rows.filter((r) => r.status === s).length;
  return (
    <div>
      <p className="px-3 py-2 text-xs text-gray-600" data-testid="gate-summary">
        {count("improved")} improved · {count("regressed")} regressed · {count("unchanged")} unchanged
      </p>
      <table className={TABLE} data-testid="gate-table">
        <thead className={THEAD}>
          <tr>
            <th className={TH}>Candidate</th>
            <th className={TH}>Task</th>
            <th className={TH_NUM}>Baseline</th>
            <th className={TH_NUM}>Candidate</th>
            <th className={TH}>Outcome</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={`${r.trial}-${r.taskId}-${i}`} className={ROW}>
              <td className={TD}>{r.trial}</td>
              <td className={`${TD} font-mono text-xs`}>{r.taskId}</td>
              <td className={TD_NUM}>{formatScore(r.baselineScore)}</td>
              <td className={TD_NUM}>{formatScore(r.candidateScore)}</td>
              <td className={TD}>
                <Badge tone={TONE[r.status] ?? "gray"}>{r.status}</Badge>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
