import Link from "next/link";
import type { RunListItem } from "@/lib/contracts/api";
import { bestOriginLabel } from "@/lib/contracts/best";
import { testGainOf } from "@/lib/contracts/run-list";
import {
  elapsedSeconds,
  formatCost,
  formatCount,
  formatDelta,
  formatDuration,
  formatRelative,
  formatRole,
  formatScore,
  formatTimestamp,
} from "../format";
import { SIMULATED_LABEL } from "../ui/SimulatedBadge";
import { StatusBadge } from "../ui/StatusBadge";
import { ROW } from "../ui/table";
import { isActiveStatus } from "../query-keys";

export function RunRow({
  run: r,
  now,
  selected,
  onToggle,
  onAnnotate,
  onDelete,
}: {
  run: RunListItem;
  now: number;
  selected: boolean;
  onToggle: () => void;
  onAnnotate: () => void;
  onDelete: () => void;
}) {
  const tokens = r.promptTokens + r.completionTokens;
  const gain = testGainOf(r);
  return (
    <tr className={`run-row ${ROW}${selected ? " bg-indigo-50/60" : ""}`} data-testid={`run-row-${r.id}`}>
      <td>
        <input
          type="checkbox"
          className="mt-0.5 accent-indigo-600"
          checked={selected}
          onChange={onToggle}
          aria-label={`Select ${r.name} for comparison`}
        />
      </td>
      <td>
        <StatusBadge status={r.status} />
      </td>
      {/* elementtiming: the browser records when each run's name cell is first painted (bench:ui's runs table
          figure). On the cell: Chromium counts text towards its block container, not towards the link. */}
      <td className="max-w-72 min-w-40" elementtiming="run-name">
        {/* Not prefetched: the run page is rendered per request and loads its data itself; prefetching every
            visible row made about 25 server renders per visit of this list, which slowed the next page. */}
        <Link href={`/runs/${r.id}`} prefetch={false} className="font-medium text-indigo-700 hover:underline">
          {r.name || r.id.slice(0, 8)}
        </Link>
        {r.source === "cli" && (
          <span
            className="ml-1.5 rounded bg-gray-100 px-1 py-0.5 text-[10px] font-medium text-gray-600"
            title="Trained from the command line (npm run skillopt -- train)"
            data-testid="source-cli"
          >
            CLI
          </span>
        )}
        <RunTagsAndNote tags={r.tags} note={r.note} />
        {r.simulated && <div className="text-xs text-amber-700">{SIMULATED_LABEL}</div>}
        {r.status === "failed" && r.errorMessage && (
          // contain-inline-size: the one-line message takes the width the name gives the column, never widens it.
          <div className="truncate text-xs text-red-700 contain-inline-size" title={r.errorMessage}>
            {r.errorMessage}
          </div>
        )}
      </td>
      <td>{r.env || "—"}</td>
      <ModelCell backend={r.optimizerBackend} model={r.optimizerModel} />
      <ModelCell backend={r.targetBackend} model={r.targetModel} />
      <td className="num">
        <span className="text-gray-500">{formatScore(r.baselineScore)}</span>
        <span className="px-1 text-gray-400">→</span>
        <span className="font-medium" title={r.bestOrigin === null ? undefined : `best: ${bestOriginLabel(r)}`}>
          {formatScore(r.bestScore)}
        </span>
      </td>
      <td className="num">{formatScore(r.testBest)}</td>
      <td
        className={`num ${gain === null ? "text-gray-400" : gain > 0 ? "text-green-700" : gain < 0 ? "text-red-700" : ""}`}
        data-testid="test-gain"
      >
        {gain === null ? "—" : formatDelta(gain)}
      </td>
      <td className="num">
        {r.stepsDone}/{r.stepsTotal > 0 ? r.stepsTotal : "—"}
      </td>
      <td className="num">{formatCount(tokens)}</td>
      <td className="num" title={r.costUsd === null ? "Unknown: a model without a known price was used" : undefined}>
        {r.costUsd === null ? "—" : formatCost(r.costUsd)}
      </td>
      <td
        className="whitespace-nowrap text-gray-700"
        title={formatTimestamp(r.startedAt ?? r.createdAt)}
        suppressHydrationWarning // the tooltip is local time: the server's time zone may not be the browser's
      >
        {formatRelative(r.startedAt ?? r.createdAt, now)}
      </td>
      <td className="num">{formatDuration(runDuration(r, now))}</td>
      {/* The two actions one above the other: side by side they took the width of a column more. */}
      <td>
        <div className="flex flex-col items-end gap-0.5">
          <button
            type="button"
            className="row-action text-gray-600 hover:bg-gray-100 hover:text-gray-900"
            onClick={onAnnotate}
            aria-label={`Tags and note of ${r.name || r.id}`}
            data-testid="annotate-run"
          >
            Tags
          </button>
          <button
            type="button"
            className="row-action text-red-700 hover:bg-red-50"
            onClick={onDelete}
            aria-label={`Delete ${r.name || r.id}`}
            data-testid="delete-run"
          >
            Delete
          </button>
        </div>
      </td>
    </tr>
  );
}

/**
 * A role's model, then its backend in grey, on one line cut to 9rem, with the whole "backend · model" as the
 * tooltip: model names run long (`meta-llama/Llama-3.1-70B-Instruct` on openai-compatible), the model is
 * what tells runs apart, and the table must keep to a 1,440 px window (components/ui/table.ts, TH_TIGHT).
 */
function ModelCell({ backend, model }: { backend: string; model: string }) {
  return (
    <td className="text-gray-700" title={formatRole(backend, model)}>
      <div className="max-w-36 truncate">
        {model || backend || "—"}
        {model && backend && <span className="text-gray-500"> · {backend}</span>}
      </div>
    </td>
  );
}

function RunTagsAndNote({ tags, note }: { tags: string[]; note: string | null }) {
  if (tags.length === 0 && !note) return null;
  return (
    <div className="mt-0.5 space-y-0.5">
      {tags.length > 0 && (
        <div className="flex flex-wrap gap-1" data-testid="run-tags">
          {tags.map((t) => (
            <span key={t} className="rounded bg-indigo-50 px-1 py-0.5 text-[11px] text-indigo-800">
              {t}
            </span>
          ))}
        </div>
      )}
      {note && (
        <div className="line-clamp-2 text-xs whitespace-pre-line text-gray-600" title={note} data-testid="run-note">
          {note}
        </div>
      )}
    </div>
  );
}

/** Wall time: until now while active, until the finish otherwise; unknown for a run that stopped without one. */
function runDuration(r: Pick<RunListItem, "status" | "startedAt" | "finishedAt">, now: number): number | null {
  if (isActiveStatus(r.status)) return elapsedSeconds(r.startedAt, null, now);
  return r.finishedAt ? elapsedSeconds(r.startedAt, r.finishedAt, now) : null;
}
