"use client";
import { useEffect, useState } from "react";

/**
 * The current time, re-read every `intervalMs` (relative times and running durations tick). `start` is
 * the time a server render used, so the first client render draws the same text and hydration matches.
 */
export function useNow(intervalMs = 10_000, start?: number): number {
  const [now, setNow] = useState(() => start ?? Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}
