/**
 * Coalesces bursts of refetch requests: at most one task in flight, plus one trailing run when requests
 * arrived meanwhile. Fifty SSE frames in a burst cost two fetches, not fifty.
 */
export interface CoalescedRunner {
  request(): void;
  cancel(): void;
}

/** `minGapMs` spaces a trailing run after the previous one finished (0 = at once). */
export function createCoalescedRunner(
  task: () => Promise<unknown>,
  { minGapMs = 0 }: { minGapMs?: number } = {},
): CoalescedRunner {
  let inFlight = false;
  let pending = false;
  let cancelled = false;
  const run = () => {
    inFlight = true;
    pending = false;
    // `task` is a TanStack refetch, which records its own errors and never rejects.
    void task().finally(() => {
      if (!pending || cancelled) {
        inFlight = false;
        return;
      }
      // Still "in flight" during the gap, so requests meanwhile fold into this trailing run.
      if (minGapMs > 0) setTimeout(() => (cancelled ? (inFlight = false) : run()), minGapMs);
      else run();
    });
  };
  return {
    request() {
      if (cancelled) return;
      if (inFlight) pending = true;
      else run();
    },
    cancel() {
      cancelled = true;
      pending = false;
    },
  };
}
