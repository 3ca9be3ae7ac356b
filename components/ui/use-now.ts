"use client";
import { useEffect, useState } from "react";

/** The current time, re-read every `intervalMs` (relative times and running durations tick). */
export function useNow(intervalMs = 10_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}
