"use client";
import { useQuery } from "@tanstack/react-query";
import { api } from "../api-client";
import { isActiveStatus, queryKeys } from "../query-keys";

/** Curves and config differences of 2–8 runs (`["compare", "a,b"]`); refreshed while any is active. */
export function useCompare(ids: string[]) {
  return useQuery({
    queryKey: queryKeys.compare(ids),
    queryFn: () => api.compareRuns(ids),
    enabled: ids.length >= 2,
    refetchInterval: (q) => (q.state.data?.runs.some((r) => isActiveStatus(r.status)) ? 5_000 : false),
  });
}
