"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TransferCellView, TransferMatrixResponse, TransferTarget } from "@/lib/contracts/transfer";
import { MAX_TRANSFER_TARGETS } from "@/lib/contracts/transfer";
import { api, request } from "../api-client";
import { formatCost, formatDelta, formatScore } from "../format";
import { queryKeys } from "../query-keys";
import { Button } from "../ui/Button";
import { Card } from "../ui/Card";
import { Notice } from "../ui/Notice";

const url = (id: string) => `/api/runs/${encodeURIComponent(id)}/transfer`;
const key = (id: string) => ["run", id, "transfer"] as const;
const busy = (c: TransferCellView | null) => c !== null && (c.status === "queued" || c.status === "running");

/**
 * Transfer matrix of a finished run: its best skill and its seed scored on the test split with other
 * targets (one queued worker job per cell), as target × skill → score, delta and cost, downloadable as CSV.
 */
export function TransferMatrixPanel({ runId, status }: { runId: string; status: string }) {
  const qc = useQueryClient();
  const matrix = useQuery({
    queryKey: key(runId),
    queryFn: () => request<TransferMatrixResponse>(url(runId)),
    enabled: status === "succeeded",
    refetchInterval: (q) => (q.state.data?.rows.some((r) => busy(r.seed) || busy(r.best)) ? 1_500 : false),
  });
  const backends = useQuery({ queryKey: queryKeys.backends, queryFn: () => api.listBackends() });
  const targets = (backends.data ?? []).filter((b) => b.available && b.roles.includes("target"));
  const [picked, setPicked] = useState<TransferTarget[]>([]);
  const [backend, setBackend] = useState("");
  const [model, setModel] = useState("");
  const [maxCalls, setMaxCalls] = useState("");
  const cap = maxCalls.trim() === "" ? undefined : Number(maxCalls);
  const queue = useMutation({
    mutationFn: (list: TransferTarget[]) =>
      request(url(runId), { method: "POST", json: { targets: list, ...(cap === undefined ? {} : { maxCalls: cap }) } }),
    onSuccess: () => setPicked([]),
    onSettled: () => qc.invalidateQueries({ queryKey: key(runId) }),
  });
  const retry = useMutation({
    mutationFn: (cellId: string) =>
      request(`${url(runId)}/cells/${encodeURIComponent(cellId)}/retry`, { method: "POST" }),
    onSettled: () => qc.invalidateQueries({ queryKey: key(runId) }),
  });
  if (status !== "succeeded") return null;
  const chosenBackend = backend || targets[0]?.name || "";
  const add = () => {
    const t = { backend: chosenBackend, model: model.trim() };
    if (!t.backend || !t.model || picked.some((p) => p.backend === t.backend && p.model === t.model)) return;
    setPicked([...picked, t]);
    setModel("");
  };
  const rows = matrix.data?.rows ?? [];
  return (
    <Card
      title="Transfer matrix (test split)"
      testId="transfer-matrix"
      actions={
        rows.length > 0 && (
          <a className="text-indigo-700 hover:underline" href={`${url(runId)}?format=csv`} data-testid="transfer-csv">
            Download CSV
          </a>
        )
      }
    >
      <div className="space-y-3 text-sm">
        <p className="text-gray-600">
          Score this run&apos;s best skill and its seed with other target models on the same test items. Each cell is a
          job on the worker; no optimizer call is made.
        </p>
        <div className="flex flex-wrap items-end gap-2">
          <label className="text-xs text-gray-700">
            Backend
            <select
              className="mt-1 block rounded-md border border-gray-300 px-2 py-1 text-sm"
              value={chosenBackend}
              onChange={(e) => setBackend(e.target.value)}
              data-testid="transfer-backend"
            >
              {targets.map((b) => (
                <option key={b.name} value={b.name}>
                  {b.name}
                </option>
              ))}
            </select>
          </label>
          <label className="text-xs text-gray-700">
            Model
            <input
              className="mt-1 block w-56 rounded-md border border-gray-300 px-2 py-1 text-sm"
              value={model}
              onChange={(e) => setModel(e.target.value)}
              onKeyDown={(e) => e.key === "Enter" && add()}
              placeholder="e.g. gpt-5-mini"
              data-testid="transfer-model"
            />
          </label>
          <Button
            onClick={add}
            disabled={!model.trim() || picked.length >= MAX_TRANSFER_TARGETS}
            data-testid="transfer-add"
          >
            Add target
          </Button>
          <label className="text-xs text-gray-700">
            Max calls (optional)
            <input
              className="mt-1 block w-28 rounded-md border border-gray-300 px-2 py-1 text-sm"
              inputMode="numeric"
              value={maxCalls}
              onChange={(e) => setMaxCalls(e.target.value)}
              placeholder="no cap"
              data-testid="transfer-max-calls"
            />
          </label>
          <Button
            variant="primary"
            disabled={picked.length === 0 || queue.isPending}
            onClick={() => queue.mutate(picked)}
            data-testid="transfer-queue"
          >
            Evaluate {picked.length > 0 ? `${picked.length} target${picked.length > 1 ? "s" : ""}` : ""}
          </Button>
        </div>
        {picked.length > 0 && (
          <p className="text-xs text-gray-600" data-testid="transfer-picked">
            To evaluate: {picked.map((p) => `${p.backend} / ${p.model}`).join(", ")}
          </p>
        )}
        {queue.error && <Notice tone="error">{queue.error.message}</Notice>}
        {retry.error && <Notice tone="error">Retry failed: {retry.error.message}</Notice>}
        {matrix.error && <Notice tone="error">Could not load the matrix: {matrix.error.message}</Notice>}
        {rows.length > 0 && <MatrixTable rows={rows} source={matrix.data!.source} onRetry={(id) => retry.mutate(id)} />}
      </div>
    </Card>
  );
}

function CellScore({ c, onRetry }: { c: TransferCellView | null; onRetry: (cellId: string) => void }) {
  if (!c) return <span className="text-gray-400">—</span>;
  if (c.status === "failed")
    return (
      <span className="text-red-700" title={c.errorMessage ?? ""}>
        failed
        {c.id && (
          <button
            type="button"
            className="ml-2 text-indigo-700 hover:underline"
            onClick={() => onRetry(c.id!)}
            data-testid="transfer-retry"
          >
            Retry
          </button>
        )}
      </span>
    );
  if (c.status !== "succeeded") return <span className="text-gray-500">{c.status}…</span>;
  return (
    <span>
      {formatScore(c.hard)}
      {c.nUnanswered ? <span className="text-xs text-amber-700"> ({c.nUnanswered} unanswered)</span> : null}
    </span>
  );
}

function MatrixTable({
  rows,
  source,
  onRetry,
}: {
  rows: TransferMatrixResponse["rows"];
  source: TransferMatrixResponse["source"];
  onRetry: (cellId: string) => void;
}) {
  return (
    <table className="w-full text-left text-xs" data-testid="transfer-table">
      <thead className="bg-gray-50 text-gray-600">
        <tr>
          <th className="px-2 py-1.5">Target</th>
          <th className="px-2 py-1.5">Seed skill</th>
          <th className="px-2 py-1.5">Best skill</th>
          <th className="px-2 py-1.5">Δ best − seed</th>
          <th className="px-2 py-1.5">Calls</th>
          <th className="px-2 py-1.5">Cost</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.backend}/${r.model}`} className="border-t border-gray-100" data-testid="transfer-row">
            <td className="px-2 py-1.5 font-medium">
              {r.backend} / {r.model}
              {r.backend === source.backend && r.model === source.model && (
                <span className="ml-1 text-gray-500">(trained on)</span>
              )}
            </td>
            <td className="px-2 py-1.5">
              <CellScore c={r.seed} onRetry={onRetry} />
            </td>
            <td className="px-2 py-1.5">
              <CellScore c={r.best} onRetry={onRetry} />
            </td>
            <td className={`px-2 py-1.5 ${r.delta !== null && r.delta < 0 ? "text-red-700" : ""}`}>
              {r.delta === null ? "—" : formatDelta(r.delta)}
            </td>
            <td className="px-2 py-1.5">{r.calls}</td>
            <td className="px-2 py-1.5">{formatCost(r.costUsd)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
