"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { RunListResponse } from "@/lib/contracts/api";
import type { RunAnnotationsInput } from "@/lib/contracts/run-list";
import { api } from "../api-client";
import { queryKeys } from "../query-keys";
import { runsQueryString, type RunsView } from "./runs-view";

/**
 * How often the table asks again while the tab is visible: runs created from another tab, the CLI or
 * another machine, and runs finishing, appear within this long without a reload. One page is a single
 * indexed query (see `npm run bench:ui`), so this costs little even with thousands of runs.
 */
export const RUNS_REFRESH_MS = 3_000;

/** A page the server rendered: its API query string, the answer, and when it was read (ms since epoch). */
export interface RunsSeed {
  key: string;
  data: RunListResponse;
  at: number;
}

/**
 * One page of the runs table; the previous page stays on screen while the next loads. The page the server
 * rendered seeds the cache for its own view, so the client shows it without asking again at once.
 */
export function useRuns(view: RunsView, seed?: RunsSeed) {
  const own = seed && seed.key === runsQueryString(view, { forApi: true }) ? seed : undefined;
  const query = useQuery({
    queryKey: queryKeys.runs(view),
    queryFn: () => api.listRuns(view),
    placeholderData: keepPreviousData,
    refetchInterval: RUNS_REFRESH_MS,
    initialData: own?.data,
    initialDataUpdatedAt: own?.at,
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
