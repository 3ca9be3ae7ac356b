/** Fetchers and query hooks of the run page's review views (item history, skill versions, cost curve). */
"use client";
import { useQuery } from "@tanstack/react-query";
import type { ItemHistoryResponse, ItemSplit } from "@/lib/contracts/item-history";
import { request } from "../api-client";

const base = (id: string) => `/api/runs/${encodeURIComponent(id)}`;

/** Per-item history of one split; fetched when the view is opened, refetched when a step is added. */
export function useItemHistory(id: string, split: ItemSplit, enabled: boolean, stepsDone: number) {
  return useQuery({
    queryKey: ["run", id, "items", split, stepsDone],
    queryFn: () => request<ItemHistoryResponse>(`${base(id)}/items?split=${split}`),
    enabled,
    placeholderData: (prev) => prev,
  });
}
