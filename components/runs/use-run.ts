"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
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
