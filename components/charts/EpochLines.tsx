"use client";
import { memo } from "react";
import { usePlotArea, useXAxisScale } from "recharts";

/**
 * Dashed vertical guides at epoch boundaries, drawn inside a recharts chart from its x scale, optionally
 * labelled with the epoch that starts there. One component for all of them instead of a `<ReferenceLine>`
 * each: every reference line registers itself in the chart's store on mount, and each registration makes
 * the chart's other parts check their inputs again (ten epochs on three charts was ≈60 ms of a run page's
 * load). Guides outside the plotted range (zoomed with the range bar) are left out.
 */
export const EpochLines = memo(function EpochLines({
  bounds,
  labelled = true,
  stroke = "#d1d5db",
}: {
  bounds: ReadonlyArray<{ step: number; epoch: number }>;
  labelled?: boolean;
  stroke?: string;
}) {
  const x = useXAxisScale();
  const area = usePlotArea();
  if (!x || !area || bounds.length === 0) return null;
  const lines = bounds.flatMap((b) => {
    const px = x(b.step);
    if (px === undefined || !Number.isFinite(px) || px < area.x - 0.5 || px > area.x + area.width + 0.5) return [];
    return [{ ...b, px }];
  });
  return (
    <g className="epoch-lines" data-testid="epoch-lines">
      {lines.map((b) => (
        <g key={b.step}>
          <line x1={b.px} x2={b.px} y1={area.y} y2={area.y + area.height} stroke={stroke} strokeDasharray="3 3" />
          {labelled && (
            <text x={b.px + 4} y={area.y + 12} fontSize={10} fill="#9ca3af">
              {`epoch ${b.epoch}`}
            </text>
          )}
        </g>
      ))}
    </g>
  );
});
