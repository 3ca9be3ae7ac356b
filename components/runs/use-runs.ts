"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { RunAnnotationsInput } from "@/lib/contracts/run-list";
import { api } from "../api-client";
import { queryKeys } from "../query-keys";
import type { RunsView } from "./runs-view";

/**
 * How often the table asks again while the tab is visible: runs created from another tab, the CLI or
 * another machine, and runs finishing, appear within this long without a reload. One page is a single
 * indexed query (see `npm run bench:ui`), so this costs little even with thousands of runs.
 */
export const RUNS_REFRESH_MS = 3_000;

/** One page of the runs table; the previous page stays on screen while the next loads. */
export function useRuns(view: RunsView) {
  const query = useQuery({
    queryKey: queryKeys.runs(view),
    queryFn: () => api.listRuns(view),
    placeholderData: keepPreviousData,
    refetchInterval: RUNS_REFRESH_MS,
  });
  return {
    ...query,
    runs: query.data?.runs ?? [],
    total: query.data?.total ?? 0,
    envs: query.data?.envs ?? [],
    tags: query.data?.tags ?? [],
  };
}

/** Saves a run's tags and note; the table is refetched afterwards. */
export function useSetAnnotations(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RunAnnotationsInput) => api.setRunAnnotations(id, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.runsAll }),
  });
}

/** Deletes a run; the table is refetched and the run's cached detail dropped. */
export function useDeleteRun(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.deleteRun(id),
    onSuccess: async () => {
      qc.removeQueries({ queryKey: queryKeys.run(id) });
      await qc.invalidateQueries({ queryKey: queryKeys.runsAll });
    },
  });
}
