"use client";
import type { ItemEvaluation, ResultCode } from "@/lib/contracts/item-history";
import { runsOf } from "./item-filter";

export const CODE_FILL: Record<ResultCode, string> = { "1": "#10b981", "0": "#ef4444", e: "#f59e0b", ".": "#e5e7eb" };
export const CODE_WORD: Record<ResultCode, string> = {
  "1": "correct",
  "0": "wrong",
  e: "not answered",
  ".": "not evaluated",
};

const span = (evals: readonly ItemEvaluation[], start: number, length: number) => {
  const a = evals[start]?.step ?? 0;
  const b = evals[start + length - 1]?.step ?? a;
  const name = (s: number) => (s === 0 ? "baseline" : `step ${s}`);
  return a === b ? name(a) : `${name(a)} – ${name(b)}`;
};

/**
 * One item across the run: the current skill's result (thick band) over what each evaluation measured
 * (thin band). Drawn as run-length rectangles; a click picks the evaluation under the pointer.
 */
export function ItemStrip({
  current,
  cells,
  evaluations,
  onPick,
}: {
  current: string;
  cells: string;
  evaluations: readonly ItemEvaluation[];
  onPick: (step: number) => void;
}) {
  const n = Math.max(1, cells.length);
  return (
    <svg
      viewBox={`0 0 ${n} 14`}
      preserveAspectRatio="none"
      className="h-3.5 w-full min-w-40 cursor-pointer"
      role="img"
      aria-label={`current skill: ${runsOf(current)
        .map((r) => `${CODE_WORD[r.code]} ${span(evaluations, r.start, r.length)}`)
        .join(", ")}`}
      onClick={(e) => {
        const box = e.currentTarget.getBoundingClientRect();
        const i = Math.min(n - 1, Math.max(0, Math.floor(((e.clientX - box.left) / box.width) * n)));
        const ev = evaluations[i];
        if (ev && ev.step > 0) onPick(ev.step);
      }}
    >
      {runsOf(current).map((r) => (
        <rect key={`c${r.start}`} x={r.start} y={0} width={r.length} height={8} fill={CODE_FILL[r.code]}>
          <title>{`current skill ${CODE_WORD[r.code]}: ${span(evaluations, r.start, r.length)}`}</title>
        </rect>
      ))}
      {runsOf(cells).map((r) => (
        <rect key={`m${r.start}`} x={r.start} y={10} width={r.length} height={4} fill={CODE_FILL[r.code]} opacity={0.7}>
          <title>{`measured ${CODE_WORD[r.code]}: ${span(evaluations, r.start, r.length)}`}</title>
        </rect>
      ))}
    </svg>
  );
}
