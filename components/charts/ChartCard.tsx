"use client";
import { useLayoutEffect, useRef, useState, type ReactElement, type ReactNode } from "react";
import { ResponsiveContainer } from "recharts";
import { Card } from "../ui/Card";

export const CHART_HEIGHT = 220;

/** A titled chart with a fixed height; the width follows the card (ResponsiveContainer with a size). */
export function ChartCard({
  title,
  testId,
  actions,
  empty,
  note,
  children,
}: {
  title: ReactNode;
  testId: string;
  actions?: ReactNode;
  /** When set, the message replaces the chart (no data yet). */
  empty?: string | null;
  /** A line under the chart, e.g. what an axis stands for. */
  note?: ReactNode;
  children: ReactElement;
}) {
  return (
    <Card title={title} actions={actions} testId={testId} bodyClassName="px-2 pt-3 pb-1">
      {empty ? (
        <div className="grid place-items-center text-center text-xs text-gray-500" style={{ height: CHART_HEIGHT }}>
          {empty}
        </div>
      ) : (
        <SizedChart>{children}</SizedChart>
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
function SizedChart({ children }: { children: ReactElement }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    if (box.current) setWidth(Math.round(box.current.getBoundingClientRect().width));
  }, []);
  return (
    <div ref={box} style={{ height: CHART_HEIGHT }}>
      {width !== null && (
        <ResponsiveContainer width="100%" height={CHART_HEIGHT} initialDimension={{ width, height: CHART_HEIGHT }}>
          {children}
        </ResponsiveContainer>
      )}
    </div>
  );
}
