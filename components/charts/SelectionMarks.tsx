"use client";
import type { TooltipContentProps } from "recharts";
import { ActionBadge } from "../ui/ActionBadge";
import { formatDelta, formatScore } from "../format";
import { COLORS, TOOLTIP_STYLE } from "./chart-style";
import type { GatePoint } from "./chart-data";

const REJECTED = "#dc2626";

/** A candidate's dot: filled when accepted, hollow red when rejected, small grey for a skipped gate. */
export function CandidateDot(props: { cx?: number; cy?: number; payload?: GatePoint; r?: number }) {
  const { cx, cy, payload, r = 2.5 } = props;
  if (cx === undefined || cy === undefined || !payload || payload.candidate === null) return <g />;
  if (payload.decision === "accepted")
    return <circle cx={cx} cy={cy} r={r + 0.5} fill={COLORS.candidate} stroke="none" data-decision="accepted" />;
  if (payload.decision === "rejected")
    return (
      <circle cx={cx} cy={cy} r={r + 0.5} fill="#ffffff" stroke={REJECTED} strokeWidth={1.3} data-decision="rejected" />
    );
  return <circle cx={cx} cy={cy} r={r - 0.5} fill="#9ca3af" stroke="none" data-decision="skipped" />;
}

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
