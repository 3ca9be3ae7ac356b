"use client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";

/** Lists up to this long render every row: windowing pays off only for long lists (and short ones stay findable). */
export const WINDOW_FROM = 60;
/** Rows rendered beyond each edge of the scroll box, in pixels, so a quick scroll shows no blank band. */
const OVERSCAN_PX = 480;

export interface RowWindowOptions {
  count: number;
  /** A stable key per row index: a measured height follows its row when a filter reorders the list. */
  keyOf: (i: number) => string;
  /** The height of a row not measured yet, in pixels. */
  estimate: number;
  /** The scrolling box (the element with the max height and overflow). */
  scrollRef: React.RefObject<HTMLDivElement | null>;
}

export interface RowWindow {
  /** Rows [start, end) are rendered; spacer rows of padTop / padBottom pixels stand in for the others. */
  start: number;
  end: number;
  padTop: number;
  padBottom: number;
  /** Ref callback for every rendered row (which must carry `data-key={keyOf(i)}`): its height is measured. */
  measureRow: (el: HTMLElement | null) => (() => void) | undefined;
  /** Scrolls the box (not the page) so row `i` shows, unless it already does. */
  revealRow: (i: number) => void;
}

/**
 * Renders only the rows of a long table that are in (or near) its scroll box. Row heights are measured as
 * rows render (ResizeObserver) and estimated until then, so rows that wrap to several lines are placed
 * right. Hand-written because it is ~100 lines; `@tanstack/react-virtual` would do the same.
 */
export function useRowWindow({ count, keyOf, estimate, scrollRef }: RowWindowOptions): RowWindow {
  const roRef = useRef<ResizeObserver | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(800);
  const [heights, setHeights] = useState<ReadonlyMap<string, number>>(() => new Map());
  const windowed = count > WINDOW_FROM;

  useEffect(() => {
    const el = scrollRef.current;
    if (!el || !windowed) return;
    let frame = 0;
    const onScroll = () => {
      frame ||= requestAnimationFrame(() => {
        frame = 0;
        setScrollTop(el.scrollTop);
      });
    };
    const ro = new ResizeObserver(() => setViewport(el.clientHeight));
    ro.observe(el);
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      ro.disconnect();
      el.removeEventListener("scroll", onScroll);
    };
  }, [windowed, scrollRef]);

  useEffect(() => () => roRef.current?.disconnect(), []);

  const measureRow = useCallback((el: HTMLElement | null) => {
    if (!el) return undefined;
    roRef.current ??= new ResizeObserver((entries) =>
      setHeights((old) => {
        let next: Map<string, number> | null = null;
        for (const e of entries) {
          const key = (e.target as HTMLElement).dataset.key;
          const h = e.borderBoxSize[0]?.blockSize ?? (e.target as HTMLElement).offsetHeight;
          if (key === undefined || h <= 0 || Math.abs((old.get(key) ?? -1) - h) < 0.5) continue;
          next ??= new Map(old);
          next.set(key, h);
        }
        return next ?? old;
      }),
    );
    const ro = roRef.current;
    ro.observe(el);
    return () => ro.unobserve(el);
  }, []);

  // Top offset of every row (prefix sums of measured or estimated heights): O(rows) per change, fine at 10,000.
  const offsets = useMemo(() => {
    const out = new Float64Array(count + 1);
    for (let i = 0; i < count; i++) out[i + 1] = out[i]! + (heights.get(keyOf(i)) ?? estimate);
    return out;
  }, [count, keyOf, heights, estimate]);

  const revealRow = useCallback(
    (i: number) => {
      const el = scrollRef.current;
      if (!el || i < 0 || i >= count) return;
      const top = offsets[i]!;
      const bottom = offsets[i + 1]!;
      // The sticky header covers the box's first pixels: a row partly under it counts as hidden.
      const header = el.querySelector("thead")?.getBoundingClientRect().height ?? 0;
      if (top >= el.scrollTop && bottom + header <= el.scrollTop + el.clientHeight) return;
      el.scrollTop = Math.max(0, top - el.clientHeight / 3);
    },
    [count, offsets, scrollRef],
  );

  if (!windowed) return { start: 0, end: count, padTop: 0, padBottom: 0, measureRow, revealRow };
  const start = Math.max(0, lastAtOrBefore(offsets, scrollTop - OVERSCAN_PX));
  const end = Math.min(count, lastAtOrBefore(offsets, scrollTop + viewport + OVERSCAN_PX) + 1);
  return {
    start,
    end,
    padTop: offsets[start]!,
    padBottom: offsets[count]! - offsets[end]!,
    measureRow,
    revealRow,
  };
}

/** The last index i with offsets[i] ≤ y (binary search; offsets ascend). */
function lastAtOrBefore(offsets: Float64Array, y: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
