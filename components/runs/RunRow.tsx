import Link from "next/link";
import type { RunListItem } from "@/lib/contracts/api";
import { bestOriginLabel } from "@/lib/contracts/best";
import {
  elapsedSeconds,
  formatCost,
  formatCount,
  formatDuration,
  formatRelative,
  formatRole,
  formatScore,
  formatTimestamp,
} from "../format";
import { SIMULATED_LABEL } from "../ui/SimulatedBadge";
import { StatusBadge } from "../ui/StatusBadge";
import { ROW, TD, TD_NUM } from "../ui/table";
import { isActiveStatus } from "../query-keys";

export function RunRow({
  run: r,
  now,
  selected,
  onToggle,
}: {
  run: RunListItem;
  now: number;
  selected: boolean;
  onToggle: () => void;
}) {
  const tokens = r.promptTokens + r.completionTokens;
  return (
    <tr className={`${ROW} ${selected ? "bg-indigo-50/60" : ""}`} data-testid={`run-row-${r.id}`}>
      <td className={TD}>
        <input
          type="checkbox"
          className="mt-0.5 accent-indigo-600"
          checked={selected}
          onChange={onToggle}
          aria-label={`Select ${r.name} for comparison`}
        />
      </td>
      <td className={TD}>
        <StatusBadge status={r.status} />
      </td>
      <td className={`${TD} max-w-72`}>
        <Link href={`/runs/${r.id}`} className="font-medium text-indigo-700 hover:underline">
          {r.name || r.id.slice(0, 8)}
        </Link>
        {r.source === "cli" && (
          <span
            className="ml-1.5 rounded bg-gray-100 px-1 py-0.5 text-[10px] font-medium text-gray-600"
            title="Trained from the command line (npm run skillopt -- train)"
            data-testid="source-cli"
          >
            CLI
          </span>
        )}
        {r.simulated && <div className="text-xs text-amber-700">{SIMULATED_LABEL}</div>}
        {r.status === "failed" && r.errorMessage && (
          <div className="truncate text-xs text-red-700" title={r.errorMessage}>
            {r.errorMessage}
          </div>
        )}
      </td>
      <td className={TD}>{r.env || "—"}</td>
      <td className={`${TD} whitespace-nowrap text-gray-700`}>{formatRole(r.optimizerBackend, r.optimizerModel)}</td>
      <td className={`${TD} whitespace-nowrap text-gray-700`}>{formatRole(r.targetBackend, r.targetModel)}</td>
      <td className={TD_NUM}>
        <span className="text-gray-500">{formatScore(r.baselineScore)}</span>
        <span className="px-1 text-gray-400">→</span>
        <span className="font-medium" title={r.bestOrigin === null ? undefined : `best: ${bestOriginLabel(r)}`}>
          {formatScore(r.bestScore)}
        </span>
      </td>
      <td className={TD_NUM}>{formatScore(r.testBest)}</td>
      <td className={TD_NUM}>
        {r.stepsDone}/{r.stepsTotal > 0 ? r.stepsTotal : "—"}
      </td>
      <td className={TD_NUM}>
        {formatCount(tokens)}
        <div className="text-xs text-gray-500">{r.costUsd === null ? "cost —" : formatCost(r.costUsd)}</div>
      </td>
      <td className={`${TD} whitespace-nowrap text-gray-700`} title={formatTimestamp(r.startedAt ?? r.createdAt)}>
        {formatRelative(r.startedAt ?? r.createdAt, now)}
      </td>
      <td className={TD_NUM}>{formatDuration(runDuration(r, now))}</td>
    </tr>
  );
}

/** Wall time: until now while active, until the finish otherwise; unknown for a run that stopped without one. */
function runDuration(r: Pick<RunListItem, "status" | "startedAt" | "finishedAt">, now: number): number | null {
  if (isActiveStatus(r.status)) return elapsedSeconds(r.startedAt, null, now);
  return r.finishedAt ? elapsedSeconds(r.startedAt, r.finishedAt, now) : null;
}
