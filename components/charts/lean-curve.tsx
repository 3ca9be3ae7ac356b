"use client";
import { Curve, type LineDrawShapeProps } from "recharts";

/**
 * A `<Line shape>` for lines drawn without animation. recharts' default shape hands the line's path element
 * back to the Line, which then measures the path (`getTotalLength`) on every render to animate its entrance;
 * on a 1,000-point line that is a layout and a walk of the whole path per line per render (≈100 ms under
 * load on the run page). This one draws the same curve and keeps the element to itself, so nothing is
 * measured. Only for `isAnimationActive={false}` lines: with no path to measure there is no entrance to draw.
 */
export function LeanCurve(props: LineDrawShapeProps) {
  const {
    pathRef: _ref,
    animationElapsedTime: _t,
    isAnimating: _a,
    isEntrance: _e,
    visibleLength: _v,
    ...curve
  } = props;
  return <Curve {...curve} />;
}
