"use client";
import { createContext, useContext } from "react";
import { usePlotArea, useXAxisScale } from "recharts";

/**
 * The selected step, handed to the selection chart's guide line through a context rather than as a prop of
 * the chart: a step click then redraws this one line, not the chart with its 1,000-point lines and marks.
 */
export const SelectedStepContext = createContext<number | null>(null);

/** A vertical guide at the selected step (drawn inside a recharts chart); nothing when it is out of range. */
export function SelectedStepLine() {
  const step = useContext(SelectedStepContext);
  const x = useXAxisScale();
  const area = usePlotArea();
  if (step === null || !x || !area) return null;
  const px = x(step);
  if (px === undefined || !Number.isFinite(px) || px < area.x - 0.5 || px > area.x + area.width + 0.5) return null;
  return (
    <line
      x1={px}
      x2={px}
      y1={area.y}
      y2={area.y + area.height}
      stroke="#a5b4fc"
      strokeWidth={2}
      strokeOpacity={0.6}
      data-testid="selected-step-line"
      data-step={step}
    />
  );
}
