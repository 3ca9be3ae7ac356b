"use client";
import { HoverPrefetchLink } from "@/components/ui/HoverPrefetchLink";
import { useSearchParams } from "next/navigation";
import { bestOriginLabel, bestSentence } from "@/lib/contracts/best";
import { formatCost, formatCount, formatScore } from "../format";
import { ButtonLink } from "../ui/Button";
import { Notice } from "../ui/Notice";
import { SimulatedBadge } from "../ui/SimulatedBadge";
import { StatusBadge } from "../ui/StatusBadge";
import { RUN_COLORS } from "../charts/chart-style";
import { BestSkillDiff } from "./BestSkillDiff";
import { CompareChart } from "./CompareChart";
import { CompareResults } from "./CompareResults";
import { ConfigDiffTable } from "./ConfigDiffTable";
import { SeedGroupsTable } from "./SeedGroupsTable";
import { useCompare } from "./use-compare";

/**
 * `/runs/compare?ids=a,b,…` — overlaid selection curves with each run's scores, tokens and cost beside
 * them, mean ± spread over seeds of one config, a diff of two runs' best skills, and the config keys
 * that differ.
 */
export function ComparePage() {
  const params = useSearchParams();
  const ids = [
    ...new Set(
      (params.get("ids") ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const { data, error, isPending } = useCompare(ids);

  if (ids.length < 2) {
    return (
      <Notice title="Pick runs to compare" actions={<ButtonLink href="/">Go to runs</ButtonLink>}>
        Select two or more runs on the Runs page, then press Compare.
      </Notice>
    );
  }
  if (error)
    return (
      <Notice
        tone="error"
        title="Could not compare these runs"
        actions={<ButtonLink href="/">Back to runs</ButtonLink>}
      >
        {error.message}
      </Notice>
    );
  if (isPending || !data) return <p className="text-gray-500">Loading {ids.length} runs…</p>;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">Compare {data.runs.length} runs</h1>
        <ButtonLink href="/">All runs</ButtonLink>
      </div>
      <div className="flex flex-wrap gap-2">
        {data.runs.map((r, i) => {
          return (
            <div
              key={r.id}
              className="flex max-w-full min-w-0 flex-wrap items-center gap-2 rounded-md border border-gray-200 bg-white px-3 py-1.5 shadow-xs"
            >
              <span
                className="size-2.5 rounded-full"
                style={{ background: RUN_COLORS[i % RUN_COLORS.length] }}
                aria-hidden
              />
              <HoverPrefetchLink href={`/runs/${r.id}`} className="font-medium text-indigo-700 hover:underline">
                {r.name || r.id.slice(0, 8)}
              </HoverPrefetchLink>
              <StatusBadge status={r.status} />
              {r.simulated && <SimulatedBadge />}
              <span
                className="text-xs text-gray-600 tabular-nums"
                title={bestSentence({
                  score: r.bestScore,
                  metric: r.gateMetric,
                  origin: r.bestOrigin,
                  measuredBy: r.bestMeasuredBy,
                })}
              >
                best {formatScore(r.bestScore)} ({bestOriginLabel(r)}) · {r.curve.filter((p) => p.step > 0).length}{" "}
                steps · {formatCount(r.calls)} calls · {r.costUsd === null ? "cost unknown" : formatCost(r.costUsd)}
              </span>
            </div>
          );
        })}
      </div>
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
        <CompareChart runs={data.runs} />
        <CompareResults runs={data.runs} />
      </div>
      <SeedGroupsTable runs={data.runs} />
      <BestSkillDiff runs={data.runs} />
      <ConfigDiffTable runs={data.runs} diff={data.configDiff} />
    </div>
  );
}
