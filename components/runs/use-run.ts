"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { RunAction } from "@/lib/contracts/api";
import { api } from "../api-client";
import { isActiveStatus, queryKeys } from "../query-keys";

/** Poll interval while the run is active: the fallback when the SSE stream is down. */
export const RUN_POLL_MS = 5_000;

/** The run detail (`["run", id]`); polled every 5 s while the run is queued/running/cancelling. */
export function useRun(id: string) {
  return useQuery({
    queryKey: queryKeys.run(id),
    queryFn: () => api.getRun(id),
    refetchInterval: (q) => (isActiveStatus(q.state.data?.status) ? RUN_POLL_MS : false),
  });
}

/** One committed step's detail (`["run", id, "step", n]`); keeps the previous step on screen while loading. */
export function useStepDetail(id: string, step: number | null) {
  return useQuery({
    queryKey: queryKeys.step(id, step ?? -1),
    queryFn: () => api.getStep(id, step!),
    enabled: step !== null,
    placeholderData: keepPreviousData,
  });
}

/**
 * Starts loading the step the page opens on while the run detail is still on its way: without it the step
 * is asked for only once the run detail (≈450 KB at 1,000 steps) has arrived and named its latest step, one
 * round trip after the other. `step` is read once, on mount (the URL's `?step=N`, else the latest committed
 * step the server saw when it rendered the page); `useStepDetail` then finds the answer in the cache. A hint
 * that turns out stale (a step committed meanwhile) only costs one request for a committed step.
 */
export function usePrefetchStep(id: string, step: number | null) {
  const qc = useQueryClient();
  const [first] = useState(step);
  useEffect(() => {
    if (first === null) return;
    void qc.prefetchQuery({ queryKey: queryKeys.step(id, first), queryFn: () => api.getStep(id, first) });
  }, [qc, id, first]);
}

/** Cancel / resume; the run detail and the runs list are refetched afterwards. */
export function useRunAction(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (action: "cancel" | "resume" | RunAction) =>
      api.actOnRun(id, typeof action === "string" ? { action } : action),
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.run(id), exact: true }),
        qc.invalidateQueries({ queryKey: queryKeys.runsAll }),
      ]);
    },
  });
}
