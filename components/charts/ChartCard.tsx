"use client";
import type { ReactElement, ReactNode } from "react";
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
        <ResponsiveContainer width="100%" height={CHART_HEIGHT} initialDimension={{ width: 560, height: CHART_HEIGHT }}>
          {children}
        </ResponsiveContainer>
      )}
      {note ? <p className="px-2 pb-1 text-xs text-gray-500">{note}</p> : null}
    </Card>
  );
}
