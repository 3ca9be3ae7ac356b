"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { RunReviewsResponse, SubmitReviewInput } from "@/lib/contracts/review";
import { request } from "../api-client";
import { queryKeys } from "../query-keys";

const reviewsKey = (id: string) => ["run", id, "reviews"] as const;
const url = (id: string) => `/api/runs/${encodeURIComponent(id)}/review`;

/** The run's open review (while it waits at a gate) and its settled ones; refetched when the status changes. */
export function useRunReviews(id: string, status: string) {
  return useQuery({
    queryKey: [...reviewsKey(id), status],
    queryFn: () => request<RunReviewsResponse>(url(id)),
  });
}

/** Posts a decision; the run detail, the runs list and the reviews are refetched afterwards. */
export function useSubmitReview(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: SubmitReviewInput) =>
      request<{ decision: string; queued: boolean }>(url(id), { method: "POST", json: input }),
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.run(id), exact: true }),
        qc.invalidateQueries({ queryKey: queryKeys.runsAll }),
        qc.invalidateQueries({ queryKey: reviewsKey(id) }),
      ]);
    },
  });
}
