"use client";
import type { RunDetail } from "@/lib/contracts/api";
import { formatRole, formatTimestamp } from "../format";
import { Badge } from "../ui/Badge";
import { SimulatedBadge } from "../ui/SimulatedBadge";
import { StatusBadge } from "../ui/StatusBadge";
import { RunActions } from "./RunActions";
import { RunProgress } from "./RunProgress";
import { RunStateNotice } from "./RunStateNotice";
import { RunStats } from "./RunStats";
import { SandboxNotice } from "./SandboxNotice";
import { STREAM_LABEL, type StreamState } from "./connection";

export function RunHeader({ run, streamState }: { run: RunDetail; streamState: StreamState }) {
  const stream = STREAM_LABEL[streamState];
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="truncate text-lg font-semibold">{run.name || run.id}</h1>
            <StatusBadge status={run.status} testId="run-status" />
            {run.env && <Badge tone="violet">{run.env}</Badge>}
            {run.simulated && <SimulatedBadge />}
          </div>
          <p className="flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-gray-600">
            <span>
              optimizer{" "}
              <span className="font-medium text-gray-800">{formatRole(run.optimizerBackend, run.optimizerModel)}</span>
            </span>
            <span>
              target <span className="font-medium text-gray-800">{formatRole(run.targetBackend, run.targetModel)}</span>
            </span>
            <span title={formatTimestamp(run.createdAt)}>created {formatTimestamp(run.createdAt)}</span>
            <span className="font-mono text-gray-400">{run.id}</span>
            {stream.text && (
              <span className="inline-flex items-center gap-1" title={stream.title} data-testid="stream-state">
                <span className={`size-1.5 rounded-full ${stream.dot}`} aria-hidden />
                {stream.text}
              </span>
            )}
          </p>
        </div>
        <RunActions run={run} />
      </div>
      <RunProgress run={run} live={streamState === "live"} />
      <RunStateNotice run={run} />
      <SandboxNotice run={run} />
      <RunStats run={run} />
    </div>
  );
}
