"use client";
import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * Renders its children once the spot they go in comes near the window (scrolling down), or once the
 * browser is idle after the page has drawn, whichever is first. The panels below the fold of a long run
 * thus stay out of the first paint without waiting for a scroll to exist. Holds `minHeight` meanwhile so
 * the page does not jump.
 */
export function Deferred({ children, minHeight = 200 }: { children: ReactNode; minHeight?: number }) {
  const [shown, setShown] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (shown) return;
    const show = () => setShown(true);
    const el = ref.current;
    const io =
      el && typeof IntersectionObserver !== "undefined"
        ? new IntersectionObserver((es) => es.some((e) => e.isIntersecting) && show(), { rootMargin: "400px" })
        : null;
    if (el) io?.observe(el);
    const idle = whenIdle(show);
    return () => {
      io?.disconnect();
      idle();
    };
  }, [shown]);
  if (shown) return <>{children}</>;
  return <div ref={ref} style={{ minHeight }} aria-busy="true" />;
}

/** Calls `fn` when the browser is next idle (a short timer where there is no requestIdleCallback); returns a cancel. */
function whenIdle(fn: () => void): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const id = window.requestIdleCallback(fn, { timeout: 4000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(fn, 300);
  return () => window.clearTimeout(id);
}
