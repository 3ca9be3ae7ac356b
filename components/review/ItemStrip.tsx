"use client";
import { useEffect, useRef, useState } from "react";
import type { ItemEvaluation, ResultCode } from "@/lib/contracts/item-history";
import { runsOf } from "./item-filter";
import { STRIP_HEIGHT, stripPixels } from "./strip-pixels";

export const CODE_WORD: Record<ResultCode, string> = {
  "1": "correct",
  "0": "wrong",
  e: "not answered",
  ".": "not evaluated",
};

const stepName = (s: number) => (s === 0 ? "baseline" : `step ${s}`);
/** An evaluation's name: a slow update's gate is named after the step it followed. */
const evalName = (ev: ItemEvaluation) =>
  ev.label === "slow_update" ? `slow update after step ${ev.step}` : stepName(ev.step);

/**
 * One item across the run: the current skill's result (thick band) over what each evaluation measured
 * (thin band). A canvas one pixel per evaluation, scaled to the cell, its pixels written at once: a
 * 1,000-step run costs 40 canvases, not 50,000 elements or rectangles. Hovering names the evaluation;
 * a click opens its step.
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
  const ref = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState<string>("");
  const n = Math.max(1, cells.length);
  useEffect(() => {
    const ctx = ref.current?.getContext("2d");
    if (!ctx) return;
    ctx.putImageData(new ImageData(stripPixels(current, cells, n), n, STRIP_HEIGHT), 0, 0);
  }, [current, cells, n]);
  const indexAt = (e: React.MouseEvent<HTMLCanvasElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    return Math.min(n - 1, Math.max(0, Math.floor(((e.clientX - box.left) / box.width) * n)));
  };
  const last = runsOf(current).at(-1);
  return (
    <canvas
      ref={ref}
      width={n}
      height={STRIP_HEIGHT}
      className="block h-3.5 w-full min-w-40 cursor-pointer [image-rendering:pixelated]"
      role="img"
      aria-label={
        last
          ? `current skill ${CODE_WORD[last.code]} since ${evaluations[last.start] ? evalName(evaluations[last.start]!) : stepName(0)}`
          : ""
      }
      title={hover}
      data-testid="item-strip"
      onMouseMove={(e) => {
        const i = indexAt(e);
        const ev = evaluations[i];
        if (!ev) return;
        const cell = (cells[i] ?? ".") as ResultCode;
        const cur = (current[i] ?? ".") as ResultCode;
        setHover(
          `${evalName(ev)}${ev.action ? ` (${ev.action})` : ""}: measured ${CODE_WORD[cell]}, current skill ${CODE_WORD[cur]}${ev.source === "reused" ? " · reused from the cache" : ev.source === "last_known" ? " · cached, last known results" : ""}`,
        );
      }}
      onClick={(e) => {
        const ev = evaluations[indexAt(e)];
        if (ev && ev.step > 0) onPick(ev.step);
      }}
    />
  );
}
