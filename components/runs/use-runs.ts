"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { RunListItem } from "@/lib/contracts/api";
import { api, type RunFilters } from "../api-client";
import { isActiveStatus, queryKeys } from "../query-keys";

/** The runs list (paged by cursor); refetches every 3 s while any listed run is still active. */
export function useRuns(filters: RunFilters) {
  const query = useInfiniteQuery({
    queryKey: queryKeys.runs(filters),
    queryFn: ({ pageParam }) => api.listRuns(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.runs.some((r) => isActiveStatus(r.status))) ? 3_000 : false,
  });
  const runs: RunListItem[] = useMemo(() => query.data?.pages.flatMap((p) => p.runs) ?? [], [query.data]);
  const envs: string[] = query.data?.pages[0]?.envs ?? [];
  return { ...query, runs, envs };
}
