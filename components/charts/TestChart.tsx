"use client";
import { memo, useMemo } from "react";
import { Bar, BarChart, CartesianGrid, Cell, LabelList, Tooltip, XAxis, YAxis } from "recharts";
import { ChartCard } from "./ChartCard";
import { AXIS, COLORS, GRID, MARGIN, TOOLTIP_STYLE, scoreTick, tooltipScore, yTitle } from "./chart-style";

const BARS = [
  { key: "initial", label: "initial (seed)", color: COLORS.baseline },
  { key: "best", label: "best skill", color: COLORS.best },
  { key: "final", label: "final skill", color: COLORS.current },
] as const;

/** (c) Test split: the seed skill, the best skill and the final skill, each once it has been scored. */
export const TestChart = memo(function TestChart({
  initial,
  best,
  final,
  evalTest,
}: {
  initial: number | null;
  best: number | null;
  final: number | null;
  evalTest: boolean;
}) {
  const data = useMemo(() => {
    const values = { initial, best, final };
    return BARS.filter((b) => values[b.key] !== null).map((b) => ({
      name: b.label,
      score: values[b.key],
      color: b.color,
    }));
  }, [initial, best, final]);
  const empty = !evalTest
    ? "Test evaluation is off for this run (evaluation.eval_test = false)."
    : data.length === 0
      ? "The test split is scored at the start (seed skill) and at the end (best and final skill)."
      : null;
  return (
    <ChartCard title="Test score" testId="chart-test" empty={empty}>
      <BarChart data={data} margin={{ ...MARGIN, top: 16, bottom: 0 }} barCategoryGap="30%">
        <CartesianGrid {...GRID} />
        <XAxis dataKey="name" {...AXIS} />
        <YAxis domain={[0, 1]} tickFormatter={scoreTick} label={yTitle("test score (hard)")} {...AXIS} />
        <Tooltip formatter={tooltipScore} contentStyle={TOOLTIP_STYLE} cursor={{ fill: "#f9fafb" }} />
        <Bar dataKey="score" name="test hard" isAnimationActive={false} maxBarSize={64}>
          {data.map((d) => (
            <Cell key={d.name} fill={d.color} />
          ))}
          <LabelList
            dataKey="score"
            position="top"
            formatter={(v: unknown) => tooltipScore(v)}
            style={{ fontSize: 11, fill: "#374151" }}
          />
        </Bar>
      </BarChart>
    </ChartCard>
  );
});
