"use client";
import { useQuery } from "@tanstack/react-query";
import type { ProposalRow } from "@/lib/contracts/evidence";
import { api } from "../api-client";
import { formatScore } from "../format";
import { queryKeys } from "../query-keys";

/** What an edit rests on: its rationale and the trajectories of the analyst minibatch that proposed it. */
export function ProposalEvidence({ runId, row }: { runId: string; row: ProposalRow }) {
  const q = useQuery({
    queryKey: queryKeys.evals(runId, row.step, "rollout"),
    queryFn: () => api.listEvals(runId, { step: row.step, label: "rollout" }),
    staleTime: Infinity, // a committed step's rollout never changes
  });
  const ids = new Set(row.source?.itemIds ?? []);
  const items = (q.data ?? []).filter((r) => ids.has(r.itemId));
  return (
    <div className="space-y-2 text-xs" data-testid="proposal-evidence">
      {row.rationale && (
        <p>
          <span className="font-medium">Why:</span> {row.rationale}
        </p>
      )}
      {row.content && (
        <pre className="max-h-40 overflow-auto rounded bg-white p-2 font-mono whitespace-pre-wrap">{row.content}</pre>
      )}
      {!row.source ? (
        <p className="text-gray-500">This run&apos;s events do not record which minibatch proposed the edit.</p>
      ) : (
        <>
          <p className="text-gray-600">
            Proposed by the {row.source.kind} analyst of minibatch {row.source.minibatch}
            {row.source.batch > 0 ? ` (accumulation batch ${row.source.batch})` : ""}, which read{" "}
            {row.source.itemIds.length} trajectories:
          </p>
          {q.isPending && <p className="text-gray-500">Loading trajectories…</p>}
          {q.error && <p className="text-red-700">{q.error.message}</p>}
          {items.map((t) => (
            <details key={t.itemId} className="rounded border border-gray-200 bg-white">
              <summary className="cursor-pointer px-2 py-1">
                <span className="font-mono">{t.itemId}</span> · hard {formatScore(t.hard)} · predicted{" "}
                <span className="font-mono">{t.prediction ?? "—"}</span>
                {t.reference ? ` · reference ${t.reference}` : ""}
                {t.failReason ? ` · ${t.failReason}` : ""}
              </summary>
              <pre className="max-h-60 overflow-auto p-2 font-mono whitespace-pre-wrap">
                {t.trajectory ?? "(no trajectory kept)"}
              </pre>
            </details>
          ))}
        </>
      )}
    </div>
  );
}
