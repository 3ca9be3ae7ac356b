"use client";
import { useQuery } from "@tanstack/react-query";
import { api } from "../api-client";
import { queryKeys } from "../query-keys";
import { Card } from "../ui/Card";
import { DatasetHashes } from "./DatasetHashes";

/** The run's data as hashes (loaded once: a run's data never changes). */
export function DatasetPanel({ runId }: { runId: string }) {
  const q = useQuery({
    queryKey: queryKeys.dataset(runId),
    queryFn: () => api.getRunDataset(runId),
    staleTime: Infinity,
    retry: false,
  });
  return (
    <Card title="Data" testId="run-dataset">
      <div className="text-xs text-gray-700">
        {q.data ? (
          <DatasetHashes dataset={q.data} />
        ) : q.error ? (
          <p className="text-red-700">Data unavailable: {q.error.message}</p>
        ) : (
          <p className="text-gray-500">Loading…</p>
        )}
      </div>
    </Card>
  );
}
