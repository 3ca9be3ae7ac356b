"use client";
import { useEffect, useRef, useState, type ReactNode } from "react";

/** How long a deferred panel waits for an idle moment before it renders anyway. */
const IDLE_TIMEOUT_MS = 1_500;

/**
 * Renders its children once the page above it has had its turn: when the browser is next idle (at most
 * 1.5 s later) or as soon as the placeholder comes near the window, whichever is first. The run page's
 * panels below the fold (review, evidence, event log) then neither fetch nor render before the charts,
 * the step table and the step detail are on screen.
 */
export function Deferred({ children, minHeight = 120 }: { children: ReactNode; minHeight?: number }) {
  const [shown, setShown] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (shown || !el) return;
    const show = () => setShown(true);
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && show(), {
      rootMargin: "200px",
    });
    io.observe(el);
    const idle =
      typeof requestIdleCallback === "function"
        ? requestIdleCallback(show, { timeout: IDLE_TIMEOUT_MS })
        : window.setTimeout(show, 200);
    return () => {
      io.disconnect();
      if (typeof cancelIdleCallback === "function") cancelIdleCallback(idle);
      else window.clearTimeout(idle);
    };
  }, [shown]);
  if (shown) return <>{children}</>;
  return <div ref={ref} style={{ minHeight }} aria-busy="true" />;
}
