/**
 * Which of a run's steps the per-step charts draw. A chart draws at most `MAX_CHART_POINTS` points: a
 * longer run (or a zoomed range that is still longer) is cut into spans and each span keeps its lowest and
 * highest step by the candidate's score (the train score where a step has none), so peaks and dips stay
 * where they are (another chart may pick by its own value: `chartWindow(points, range, max, value)`). Every chart picks the same steps (`pickRows`), so their synchronised tooltips meet on
 * the same step. Each chart's own derived series (moving averages, the gate's delta) are computed over
 * every step first and picked afterwards. Zooming in (the range bar under the selection chart) narrows the range: once it holds no more
 * than `MAX_CHART_POINTS` steps, every step is drawn.
 *
 * The marks of the gate's decisions are not thinned: `from`/`to` give the range, and every candidate in it
 * keeps its mark.
 */
import type { StepPoint } from "./chart-data";

/**
 * At most this many points per line. About one per two pixel columns of a chart half a 1,440 px window
 * wide; recharts' work grows with the points of each of a chart's lines (≈12 lines on a run page).
 */
export const MAX_CHART_POINTS = 300;

/** A range of steps, both ends included. */
export interface StepRange {
  from: number;
  to: number;
}

export interface ChartWindow {
  /** Index range of the points in view: `points.slice(from, to)`. */
  from: number;
  to: number;
  /** Indices (ascending) of the points drawn. */
  keep: readonly number[];
  /** The steps in view, and whether fewer points than steps are drawn. */
  steps: number;
  thinned: boolean;
}

type Scored = Pick<StepPoint, "step" | "candidate" | "trainHard">;
type Value<T> = (p: T) => number | null;

/** The candidate's score, or the train score where a step has none. */
const candidateOrTrain: Value<Scored> = (p) => p.candidate ?? p.trainHard;

export function chartWindow(points: readonly Scored[], range: StepRange | null, max?: number): ChartWindow;
export function chartWindow<T extends { step: number }>(
  points: readonly T[],
  range: StepRange | null,
  max: number,
  value: Value<T>,
): ChartWindow;
export function chartWindow<T extends { step: number }>(
  points: readonly T[],
  range: StepRange | null,
  max = MAX_CHART_POINTS,
  value: Value<T> = candidateOrTrain as unknown as Value<T>,
): ChartWindow {
  const valueOf = (p: T) => {
    const v = value(p);
    return v === null || !Number.isFinite(v) ? Number.NaN : v;
  };
  const from = range ? lowerBound(points, range.from) : 0;
  const to = range ? lowerBound(points, range.to + 1) : points.length;
  const steps = Math.max(0, to - from);
  if (steps <= max) return { from, to, keep: indices(from, to), steps, thinned: false };
  const spans = Math.max(1, Math.floor(max / 2));
  const keep: number[] = [];
  for (let s = 0; s < spans; s++) {
    const a = from + Math.floor((s * steps) / spans);
    const b = from + Math.floor(((s + 1) * steps) / spans);
    let lo = a;
    let hi = a;
    for (let i = a + 1; i < b; i++) {
      const v = valueOf(points[i]!);
      if (Number.isNaN(v)) continue;
      const vLo = valueOf(points[lo]!);
      const vHi = valueOf(points[hi]!);
      if (v < vLo || Number.isNaN(vLo)) lo = i;
      if (v > vHi || Number.isNaN(vHi)) hi = i;
    }
    keep.push(Math.min(lo, hi));
    if (hi !== lo) keep.push(Math.max(lo, hi));
  }
  // The range's ends are always drawn, so the lines span it.
  if (keep[0] !== from) keep.unshift(from);
  if (keep.at(-1) !== to - 1) keep.push(to - 1);
  return { from, to, keep, steps, thinned: true };
}

/** A chart's rows (one per step, in the order of the points) at the window's steps. */
export function pickRows<T>(rows: readonly T[], w: ChartWindow): readonly T[] {
  if (w.keep.length === rows.length) return rows;
  return w.keep.map((i) => rows[i]!);
}

/** The rows in the window's range, every one (the gate's decision marks). */
export function rangeRows<T>(rows: readonly T[], w: ChartWindow): readonly T[] {
  return w.from === 0 && w.to === rows.length ? rows : rows.slice(w.from, w.to);
}

function indices(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
}

/** The first index whose step is ≥ `step` (points are in step order). */
function lowerBound(points: readonly { step: number }[], step: number): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.step < step) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Bands over a range of steps (the A/A noise bands), cut to the steps in view. Drawn as they are, a band
 * outside a zoomed range would widen the chart's step axis back out to reach it.
 */
export function bandsInRange<B extends { x1: number; x2: number }>(
  bands: readonly B[],
  first: number | undefined,
  last: number | undefined,
): B[] {
  if (first === undefined || last === undefined) return [];
  return bands
    .filter((b) => b.x2 >= first && b.x1 <= last)
    .map((b) => ({ ...b, x1: Math.max(b.x1, first), x2: Math.min(b.x2, last) }));
}
