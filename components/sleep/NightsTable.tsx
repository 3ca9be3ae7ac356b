"use client";
import Link from "next/link";
import { formatCount, formatScore, formatTimestamp } from "@/components/format";
import { ROW, TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "@/components/ui/table";
import type { SleepNightSummary } from "@/lib/contracts/sleep";
import { NightStatusBadge } from "./NightStatusBadge";

/** Every recorded night (dashboard, schedule and CLI), newest first. */
export function NightsTable({ nights }: { nights: SleepNightSummary[] }) {
  if (nights.length === 0)
    return (
      <p className="p-3 text-gray-500">
        No nights yet. Run one from a project above, or with `npm run skillopt -- sleep run`.
      </p>
    );
  return (
    <div className="overflow-x-auto">
      <table className={TABLE} data-testid="sleep-nights">
        <thead className={THEAD}>
          <tr>
            <th className={TH}>Night</th>
            <th className={TH}>Project</th>
            <th className={TH}>Status</th>
            <th className={TH}>From</th>
            <th className={TH_NUM}>Sessions</th>
            <th className={TH_NUM}>Tasks (train/val/test)</th>
            <th className={TH_NUM}>Baseline → candidate</th>
            <th className={TH}>Gate</th>
            <th className={TH_NUM}>Edits ✓/✗/∅</th>
            <th className={TH_NUM}>Tokens</th>
            <th className={TH}>Created</th>
          </tr>
        </thead>
        <tbody>
          {nights.map((n) => (
            <tr key={n.id} className={ROW} data-testid="sleep-night-row">
              <td className={TD}>
                {/* Not prefetched, as the runs table's links: a night page is rendered per request. */}
                <Link
                  className="font-medium text-indigo-700 hover:underline"
                  href={`/sleep/nights/${n.id}`}
                  prefetch={false}
                >
                  {n.night > 0 ? `#${n.night}` : "pending"}
                  {n.dryRun ? " (dry run)" : ""}
                </Link>
              </td>
              <td className={TD} title={n.projectDir}>
                {n.projectName ?? n.projectDir}
              </td>
              <td className={TD}>
                <NightStatusBadge status={n.status} />
              </td>
              <td className={TD}>{n.trigger}</td>
              <td className={TD_NUM}>{formatCount(n.nSessions)}</td>
              <td className={TD_NUM}>{`${n.nTasks} (${n.nTrain}/${n.nVal}/${n.nTest})`}</td>
              <td className={TD_NUM}>{`${formatScore(n.baselineScore)} → ${formatScore(n.candidateScore)}`}</td>
              <td className={TD}>{n.gateAction || "—"}</td>
              <td className={TD_NUM}>{`${n.editsAccepted}/${n.editsRejected}/${n.editsUnmatched}`}</td>
              <td className={TD_NUM}>{formatCount(n.tokensUsed)}</td>
              <td className={TD}>{formatTimestamp(n.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
