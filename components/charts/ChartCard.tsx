"use client";
import { useLayoutEffect, useRef, useState, type ReactElement, type ReactNode } from "react";
import { ResponsiveContainer } from "recharts";
import { Card } from "../ui/Card";
import { LEGEND_HEIGHT, SeriesLegend, type LegendItem } from "./SeriesLegend";

export const CHART_HEIGHT = 220;

/** A titled chart with a fixed height; the width follows the card (ResponsiveContainer with a size). */
export function ChartCard({
  title,
  testId,
  actions,
  empty,
  note,
  legend,
  footer,
  children,
}: {
  title: ReactNode;
  testId: string;
  actions?: ReactNode;
  /** When set, the message replaces the chart (no data yet). */
  empty?: string | null;
  /** A line under the chart, e.g. what an axis stands for. */
  note?: ReactNode;
  /** The series, named above the chart (`SeriesLegend`); the chart is shorter by the legend's height. */
  legend?: readonly LegendItem[];
  /** Drawn under the chart (and above the note), e.g. the step range bar; not shown while `empty`. */
  footer?: ReactNode;
  children: ReactElement;
}) {
  return (
    <Card title={title} actions={actions} testId={testId} bodyClassName="px-2 pt-3 pb-1">
      {empty ? (
        <div className="grid place-items-center text-center text-xs text-gray-500" style={{ height: CHART_HEIGHT }}>
          {empty}
        </div>
      ) : (
        <>
          {legend ? <SeriesLegend items={legend} testId={`${testId}-legend`} /> : null}
          <SizedChart height={legend ? CHART_HEIGHT - LEGEND_HEIGHT : CHART_HEIGHT}>{children}</SizedChart>
          {footer}
        </>
      )}
      {note ? <p className="px-2 pb-1 text-xs text-gray-500">{note}</p> : null}
    </Card>
  );
}

/**
 * The chart drawn once, at its real width. ResponsiveContainer starts at its `initialDimension` and measures
 * its box after mounting: a guessed width (560) drew every chart twice on load, 1,000-point lines included.
 * Here the box is measured before the first paint, while it is still empty, and the chart starts at that
 * width (whole pixels, as ResponsiveContainer rounds them), so its own measure finds nothing to change.
 */
export function SizedChart({ children, height }: { children: ReactElement; height: number }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    if (box.current) setWidth(Math.round(box.current.getBoundingClientRect().width));
  }, []);
  return (
    <div ref={box} style={{ height }}>
      {width !== null && (
        <ResponsiveContainer width="100%" height={height} initialDimension={{ width, height }}>
          {children}
        </ResponsiveContainer>
      )}
    </div>
  );
}
