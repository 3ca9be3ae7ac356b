import type { RunDetail } from "@/lib/contracts/api";
import { bestOriginLabel, bestSentence } from "@/lib/contracts/best";
import { formatCost, formatCount, formatDelta, formatScore } from "../format";

function Stat({ label, value, sub, title }: { label: string; value: string; sub?: string; title?: string }) {
  return (
    <div className="min-w-0 px-3 py-2" title={title}>
      <div className="text-xs text-gray-500">{label}</div>
      <div className="truncate text-base font-semibold tabular-nums text-gray-900">{value}</div>
      {sub && <div className="truncate text-xs text-gray-500 tabular-nums">{sub}</div>}
    </div>
  );
}

/** Scores next to cost, in one row (the numbers a practitioner checks first). */
export function RunStats({ run }: { run: RunDetail }) {
  const gain = run.bestScore !== null && run.baselineScore !== null ? run.bestScore - run.baselineScore : null;
  const tokens = run.promptTokens + run.completionTokens;
  const metric = run.config.evaluation.gate_metric;
  return (
    <div className="grid grid-cols-3 divide-x divide-gray-100 rounded-lg border border-gray-200 bg-white shadow-xs sm:grid-cols-5 lg:grid-cols-9">
      <Stat label="Baseline (selection)" value={formatScore(run.baselineScore)} sub={`gate metric: ${metric}`} />
      <Stat label="Current" value={formatScore(run.currentScore)} />
      <Stat
        label="Best"
        value={formatScore(run.bestScore)}
        sub={run.bestOrigin === null ? undefined : `${bestOriginLabel(run)} · ${formatDelta(gain)}`}
        title={bestSentence({ score: run.bestScore, metric, origin: run.bestOrigin, measuredBy: run.bestMeasuredBy })}
      />
      <Stat label="Test initial" value={formatScore(run.testInitial)} />
      <Stat label="Test best" value={formatScore(run.testBest)} />
      <Stat label="Test final" value={formatScore(run.testFinal)} />
      <Stat
        label="Tokens"
        value={formatCount(tokens)}
        sub={`${formatCount(run.promptTokens)} in · ${formatCount(run.completionTokens)} out`}
      />
      <Stat label="Model calls" value={formatCount(run.calls)} />
      <Stat
        label="Cost"
        value={run.costUsd === null ? "unknown" : formatCost(run.costUsd)}
        title={run.costUsd === null ? "No price is known for a model in use" : undefined}
      />
    </div>
  );
}
