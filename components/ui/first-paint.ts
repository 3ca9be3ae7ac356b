"use client";
import { useSyncExternalStore } from "react";

/** Where a page learns that the browser has painted it (the browser's Paint Timing in the dashboard). */
export interface PaintSource {
  /** The first contentful paint has happened. */
  painted(): boolean;
  /** Calls `done` once the first contentful paint happens; returns the way to stop listening. */
  observe(done: () => void): () => void;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface FirstPaintStore {
  subscribe(listener: () => void): () => void;
  getSnapshot(): boolean;
}

/**
 * A store for `useSyncExternalStore`: false until the page's first contentful paint, then true for good.
 * When the browser does not report paints (or the tab is hidden, so nothing is painted), it turns true
 * after `fallbackMs` anyway: what waits on it is delayed, never lost.
 */
export function createFirstPaintStore(src: PaintSource, fallbackMs = 1000): FirstPaintStore {
  let done = false;
  let stop: (() => void) | null = null;
  const listeners = new Set<() => void>();
  const finish = () => {
    if (done) return;
    done = true;
    stop?.();
    stop = null;
    for (const l of [...listeners]) l();
  };
  return {
    getSnapshot: () => done || (done = src.painted()),
    subscribe(listener) {
      listeners.add(listener);
      // Already painted: React reads the snapshot again right after subscribing and sees the change.
      if (!done && !stop && !(done = src.painted())) {
        const off = src.observe(finish);
        const timer = src.setTimeout(finish, fallbackMs);
        stop = () => {
          off();
          src.clearTimeout(timer);
        };
      }
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

const isFcp = (e: PerformanceEntry) => e.name === "first-contentful-paint";

const browserPaints: PaintSource = {
  painted: () => performance.getEntriesByType("paint").some(isFcp),
  observe(done) {
    if (!PerformanceObserver.supportedEntryTypes?.includes("paint")) return () => {};
    const o = new PerformanceObserver((list) => {
      if (list.getEntries().some(isFcp)) done();
    });
    o.observe({ type: "paint", buffered: true });
    return () => o.disconnect();
  },
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
};

let store: FirstPaintStore | null = null;
const pageStore = () => (store ??= createFirstPaintStore(browserPaints));

/**
 * Whether the page has had its first contentful paint. False on the server and while hydrating (so the
 * server's HTML and the first client render agree), then true once the browser has painted — at once on a
 * page reached by a client-side navigation, where that paint is long past.
 */
export function useAfterFirstPaint(): boolean {
  return useSyncExternalStore(
    (l) => pageStore().subscribe(l),
    () => pageStore().getSnapshot(),
    () => false,
  );
}
