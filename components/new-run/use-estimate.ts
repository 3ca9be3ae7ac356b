"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { CreateRunInput } from "@/lib/contracts/api";
import { api } from "../api-client";
import { useDebounced } from "./use-debounced";

/**
 * The live pre-flight estimate (`["estimate", body]`): the form's request, debounced 400 ms, posted to
 * /api/runs/estimate. Stale answers stay on screen (dimmed by the panel) while the next one loads.
 */
export function useEstimate(body: CreateRunInput | null) {
  const key = useDebounced(body ? JSON.stringify(body) : null, 400);
  return useQuery({
    queryKey: ["estimate", key],
    queryFn: ({ signal }) => api.estimateRun(JSON.parse(key!) as CreateRunInput, signal),
    enabled: key !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
}
