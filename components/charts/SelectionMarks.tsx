"use client";
import { memo } from "react";
import { usePlotArea, useXAxisScale, useYAxisScale, type TooltipContentProps } from "recharts";
import { ActionBadge } from "../ui/ActionBadge";
import { formatDelta, formatScore } from "../format";
import { COLORS, TOOLTIP_STYLE } from "./chart-style";
import type { Decision, GatePoint } from "./chart-data";
import { circlesPath } from "./marks-path";

const REJECTED = "#dc2626";

const DECISIONS: ReadonlyArray<{ decision: Decision; fill: string; stroke: string; grow: number }> = [
  { decision: "skipped", fill: "#9ca3af", stroke: "none", grow: -0.5 },
  { decision: "rejected", fill: "#ffffff", stroke: REJECTED, grow: 0.5 },
  { decision: "accepted", fill: COLORS.candidate, stroke: "none", grow: 0.5 },
];

/**
 * The candidates' marks, one path per decision: filled when accepted, hollow red when rejected, small grey
 * for a skipped gate. Each path says its decision and how many marks it draws (`data-decision`,
 * `data-marks`); the tooltip and the click come from the chart's pointer tracking, not from the marks.
 * Points outside the zoomed range (the range bar) are left out.
 */
export const CandidateMarks = memo(function CandidateMarks({ data, r }: { data: readonly GatePoint[]; r: number }) {
  const x = useXAxisScale();
  const y = useYAxisScale();
  const area = usePlotArea();
  if (!x || !y || !area) return null;
  const inside = (px: number) => px >= area.x - 0.5 && px <= area.x + area.width + 0.5;
  return (
    <g className="candidate-marks">
      {DECISIONS.map(({ decision, fill, stroke, grow }) => {
        const centres = data
          .filter((p) => p.decision === decision && p.candidate !== null)
          .map((p) => ({ x: x(p.step) ?? Number.NaN, y: y(p.candidate) ?? Number.NaN }))
          .filter((c) => inside(c.x));
        return (
          <path
            key={decision}
            d={circlesPath(centres, r + grow)}
            fill={fill}
            stroke={stroke}
            strokeWidth={stroke === "none" ? undefined : 1.3}
            data-decision={decision}
            data-marks={centres.length}
          />
        );
      })}
    </g>
  );
});

/** Step, the gate's decision and what it compared: candidate vs the current score before the step. */
export function SelectionTooltip({ active, payload }: Partial<TooltipContentProps<number, string>>) {
  const p = active ? (payload?.[0]?.payload as GatePoint | undefined) : undefined;
  if (!p) return null;
  return (
    <div className="rounded-md border border-gray-200 bg-white shadow-sm" style={TOOLTIP_STYLE}>
      <div className="mb-1 flex items-center gap-2 font-medium text-gray-900">
        step {p.step} <span className="font-normal text-gray-500">epoch {p.epoch}</span>
        <ActionBadge action={p.action} />
      </div>
      <table className="text-xs tabular-nums">
        <tbody>
          <tr>
            <td className="pr-3 text-gray-600">candidate</td>
            <td>
              {formatScore(p.candidate)}
              {p.delta !== null && (
                <span className={p.delta > 0 ? "ml-1 text-green-700" : p.delta < 0 ? "ml-1 text-red-700" : "ml-1"}>
                  ({formatDelta(p.delta)} vs {formatScore(p.before)})
                </span>
              )}
            </td>
          </tr>
          <tr>
            <td className="pr-3 text-gray-600">current after</td>
            <td>{formatScore(p.current)}</td>
          </tr>
          <tr>
            <td className="pr-3 text-gray-600">best</td>
            <td>{formatScore(p.best)}</td>
          </tr>
        </tbody>
      </table>
      <div className="mt-1 text-[11px] text-gray-500">click to open this step</div>
    </div>
  );
}

/** The decision legend shown in the card's title bar. */
export function DecisionLegend() {
  return (
    <span className="flex items-center gap-2 text-gray-500">
      <svg width="10" height="10" aria-hidden>
        <circle cx="5" cy="5" r="3.5" fill={COLORS.candidate} />
      </svg>
      accepted
      <svg width="10" height="10" aria-hidden>
        <circle cx="5" cy="5" r="3.5" fill="#fff" stroke={REJECTED} strokeWidth="1.3" />
      </svg>
      rejected
      <svg width="10" height="10" aria-hidden>
        <circle cx="5" cy="5" r="2" fill="#9ca3af" />
      </svg>
      skipped
    </span>
  );
}
