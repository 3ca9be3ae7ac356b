import type { RunDetail } from "@/lib/contracts/api";
import { formatDuration, progressPercent } from "../format";
import { isActiveStatus } from "../query-keys";

const BAR: Record<string, string> = {
  succeeded: "bg-green-500",
  failed: "bg-red-500",
  interrupted: "bg-orange-400",
  budget_exhausted: "bg-amber-400",
  cancelled: "bg-gray-400",
  cancelling: "bg-amber-400",
};

/**
 * Epoch / step counters, a progress bar over steps and the ETA while the run is active and the page is
 * connected (without a connection the ETA would count down on stale data, so it is hidden).
 */
export function RunProgress({ run, live = true }: { run: RunDetail; live?: boolean }) {
  const pct = progressPercent(run.stepsDone, run.stepsTotal);
  const active = isActiveStatus(run.status);
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-gray-700">
      <span>
        Epoch <b className="tabular-nums">{run.epoch}</b>/{run.numEpochs || "—"}
      </span>
      <span>
        Step <b className="tabular-nums">{run.stepsDone}</b>/{run.stepsTotal > 0 ? run.stepsTotal : "—"}
      </span>
      <div
        className="h-2 min-w-48 flex-1 overflow-hidden rounded-full bg-gray-200"
        role="progressbar"
        aria-label="Steps completed"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct === null ? undefined : Math.round(pct)}
      >
        <div
          className={`h-full rounded-full transition-[width] ${BAR[run.status] ?? "bg-indigo-500"}`}
          style={{ width: `${pct ?? 0}%` }}
        />
      </div>
      <span className="w-10 text-right tabular-nums">{pct === null ? "—" : `${Math.round(pct)}%`}</span>
      {active && live && (
        <span data-testid="eta" className="tabular-nums" title="Time left at the current pace">
          ETA{" "}
          {run.etaSeconds === null
            ? run.stepsDone === 0
              ? "after the first step"
              : "—"
            : formatDuration(run.etaSeconds)}
        </span>
      )}
    </div>
  );
}
