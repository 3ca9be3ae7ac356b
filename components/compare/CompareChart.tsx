"use client";
import { useMemo, useState } from "react";
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import type { CompareResponse } from "@/lib/contracts/api";
import { ChartCard } from "../charts/ChartCard";
import { LeanCurve } from "../charts/lean-curve";
import {
  AXIS,
  GRID,
  MARGIN,
  RUN_COLORS,
  TOOLTIP_STYLE,
  scoreTick,
  tooltipScore,
  yTitle,
  STEP_AXIS,
} from "../charts/chart-style";
import { scoreDomain } from "../charts/chart-data";

const METRICS = [
  { key: "best", label: "best" },
  { key: "current", label: "current" },
  { key: "candidate", label: "candidate" },
] as const;
type Metric = (typeof METRICS)[number]["key"];

/** Selection curves of several runs overlaid on one step axis, one line per run. */
export function CompareChart({ runs }: { runs: CompareResponse["runs"] }) {
  const [metric, setMetric] = useState<Metric>("best");
  const data = useMemo(() => {
    const byStep = new Map<number, Record<string, number | null>>();
    for (const r of runs) {
      for (const p of r.curve) {
        const row = byStep.get(p.step) ?? { step: p.step };
        row[r.id] = p[metric];
        byStep.set(p.step, row);
      }
    }
    return [...byStep.values()].sort((a, b) => (a.step ?? 0) - (b.step ?? 0));
  }, [runs, metric]);
  const domain = useMemo(() => scoreDomain(runs.flatMap((r) => r.curve.map((p) => p[metric]))), [runs, metric]);
  const legend = useMemo(
    () => runs.map((r, i) => ({ name: runName(r), color: RUN_COLORS[i % RUN_COLORS.length]!, width: 1.8 })),
    [runs],
  );
  return (
    <ChartCard
      title="Selection score per step"
      testId="compare-chart"
      legend={legend}
      empty={data.length === 0 ? "None of these runs has committed a step yet." : null}
      actions={
        <span className="flex gap-1" role="group" aria-label="Series">
          {METRICS.map((m) => (
            <button
              key={m.key}
              type="button"
              aria-pressed={metric === m.key}
              onClick={() => setMetric(m.key)}
              className={`rounded border px-2 py-0.5 ${metric === m.key ? "border-indigo-300 bg-indigo-50 text-indigo-800" : "border-gray-200 text-gray-600 hover:bg-gray-50"}`}
            >
              {m.label}
            </button>
          ))}
        </span>
      }
    >
      <LineChart data={data} margin={MARGIN}>
        <CartesianGrid {...GRID} />
        <XAxis {...STEP_AXIS} />
        <YAxis domain={domain} tickFormatter={scoreTick} label={yTitle(`${metric} selection score`)} {...AXIS} />
        <Tooltip formatter={tooltipScore} labelFormatter={(l) => `step ${l}`} contentStyle={TOOLTIP_STYLE} />
        {runs.map((r, i) => (
          <Line
            key={r.id}
            dataKey={r.id}
            name={runName(r)}
            type={metric === "candidate" ? "linear" : "stepAfter"}
            stroke={RUN_COLORS[i % RUN_COLORS.length]}
            strokeWidth={1.8}
            dot={false}
            isAnimationActive={false}
            shape={LeanCurve}
            connectNulls
          />
        ))}
      </LineChart>
    </ChartCard>
  );
}

const runName = (r: CompareResponse["runs"][number]) => r.name || r.id.slice(0, 8);
