/** Fetchers and query hooks of the run page's review views (item history, skill versions, cost curve). */
"use client";
import { useQuery } from "@tanstack/react-query";
import { expandItemHistory, type ItemHistoryWire, type ItemSplit } from "@/lib/contracts/item-history";
import type { VersionContent, VersionsResponse } from "@/lib/contracts/skill-versions";
import type { CostCurveResponse } from "@/lib/contracts/cost-curve";
import { request } from "../api-client";

const base = (id: string) => `/api/runs/${encodeURIComponent(id)}`;

/**
 * Per-item history of one split; fetched when the view is opened, refetched when a step is added. The answer
 * carries the measured codes only: the current results and changes are derived here, once per answer.
 */
export function useItemHistory(id: string, split: ItemSplit, enabled: boolean, stepsDone: number) {
  return useQuery({
    queryKey: ["run", id, "items", split, stepsDone],
    queryFn: async () => expandItemHistory(await request<ItemHistoryWire>(`${base(id)}/items?split=${split}`)),
    enabled,
    placeholderData: (prev) => prev,
  });
}

/** Every skill version with its parent; fetched when the browser is opened, refetched when a step is added. */
export function useSkillVersions(id: string, enabled: boolean, stepsDone: number) {
  return useQuery({
    queryKey: ["run", id, "versions", stepsDone],
    queryFn: () => request<VersionsResponse>(`${base(id)}/versions`),
    enabled,
    placeholderData: (prev) => prev,
  });
}

/** One version's text (versions do not change once written). */
export function useSkillVersion(id: string, ref: string | null) {
  return useQuery({
    queryKey: ["run", id, "version", ref],
    queryFn: () => request<VersionContent>(`${base(id)}/versions?ref=${encodeURIComponent(ref!)}`),
    enabled: ref !== null,
    staleTime: 60_000,
  });
}

export function versionDownloadUrl(id: string, ref: string): string {
  return `${base(id)}/versions?ref=${encodeURIComponent(ref)}&download=1`;
}

/** Tokens and calls used so far after each step; refetched when a step is added. */
export function useCostCurve(id: string, enabled: boolean, stepsDone: number) {
  return useQuery({
    queryKey: ["run", id, "cost", stepsDone],
    queryFn: () => request<CostCurveResponse>(`${base(id)}/cost`),
    enabled,
    placeholderData: (prev) => prev,
  });
}
