import { describe, expect, it } from "vitest";
import { bandsInRange, chartWindow, pickRows, rangeRows } from "./chart-window";

const pts = (n: number, score: (i: number) => number | null = () => 0.5) =>
  Array.from({ length: n }, (_, i) => ({ step: i + 1, candidate: score(i), trainHard: 0.1 }));

describe("chartWindow", () => {
  it("keeps every step of a run short enough to draw whole, and hands back the same rows", () => {
    const p = pts(300);
    const w = chartWindow(p, null);
    expect([w.from, w.to, w.keep.length, w.thinned]).toEqual([0, 300, 300, false]);
    expect(pickRows(p, w)).toBe(p);
    expect(rangeRows(p, w)).toBe(p);
  });

  it("draws a 1,000-step run in at most 300 points, from its first step to its last", () => {
    const p = pts(1000, (i) => Math.sin(i / 7));
    const w = chartWindow(p, null);
    expect(w.thinned).toBe(true);
    expect(w.steps).toBe(1000);
    expect(w.keep.length).toBeLessThanOrEqual(302);
    expect(w.keep.length).toBeGreaterThan(250);
    expect(w.keep[0]).toBe(0);
    expect(w.keep.at(-1)).toBe(999);
    expect([...w.keep].sort((a, b) => a - b)).toEqual(w.keep);
    expect(new Set(w.keep).size).toBe(w.keep.length);
  });

  it("keeps a lone peak and a lone dip that thinning by stride would drop", () => {
    const p = pts(1000, (i) => (i === 501 ? 0.99 : i === 733 ? 0.01 : 0.5));
    const kept = chartWindow(p, null).keep;
    expect(kept).toContain(501);
    expect(kept).toContain(733);
  });

  it("falls back to the train score where a step has no candidate, and skips steps with neither", () => {
    const p = Array.from({ length: 1000 }, (_, i) => ({
      step: i + 1,
      candidate: null,
      trainHard: i === 10 ? Number.NaN : i === 640 ? 1 : 0.2,
    }));
    const kept = chartWindow(p, null).keep;
    expect(kept).toContain(640);
  });

  it("zooms to a range of steps: every step once the range is short, thinned again when it is long", () => {
    const p = pts(1000);
    const near = chartWindow(p, { from: 101, to: 200 });
    expect([near.from, near.to, near.thinned, near.keep.length]).toEqual([100, 200, false, 100]);
    expect(pickRows(p, near).map((r) => r.step)).toEqual(Array.from({ length: 100 }, (_, i) => 101 + i));
    expect(rangeRows(p, near)).toHaveLength(100);
    const wide = chartWindow(p, { from: 1, to: 800 });
    expect(wide.thinned).toBe(true);
    expect(wide.keep.at(-1)).toBe(799);
    expect(rangeRows(p, wide)).toHaveLength(800);
  });

  it("finds a range by step, not by position, when steps do not start at 1", () => {
    const p = pts(50).map((r) => ({ ...r, step: r.step * 10 }));
    const w = chartWindow(p, { from: 95, to: 200 });
    expect(pickRows(p, w).map((r) => r.step)).toEqual([100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200]);
  });
});

describe("bandsInRange", () => {
  const bands = [
    { x1: 1, x2: 100, low: 0.4, high: 0.5 },
    { x1: 101, x2: 200, low: 0.5, high: 0.6 },
    { x1: 201, x2: 300, low: 0.6, high: 0.7 },
  ];
  it("keeps the bands that meet the steps in view, cut to them, so none widens a zoomed axis", () => {
    expect(bandsInRange(bands, 150, 220)).toEqual([
      { x1: 150, x2: 200, low: 0.5, high: 0.6 },
      { x1: 201, x2: 220, low: 0.6, high: 0.7 },
    ]);
    expect(bandsInRange(bands, 1, 300)).toEqual(bands);
  });
  it("draws none when nothing is in view", () => {
    expect(bandsInRange(bands, undefined, undefined)).toEqual([]);
    expect(bandsInRange(bands, 301, 400)).toEqual([]);
  });
});
