"use client";
import { memo } from "react";
import type { RunDetail } from "@/lib/contracts/api";
import { Card } from "../ui/Card";
import { DatasetPanel } from "./DatasetPanel";
import { EventLog } from "./EventLog";
import { SkillVersionsTable } from "./SkillVersionsTable";
import { BackendUsageTable } from "./BackendUsageTable";
import { UsageTable } from "./UsageTable";
import { useRunFrames } from "./use-run-events";

/**
 * Below the steps: the event log, skill versions, tokens by stage and the run's configuration. Memoised on
 * the run detail; the streamed frames are read here, so a batch of events redraws this panel only.
 */
export const RunSidePanels = memo(function RunSidePanels({ run }: { run: RunDetail }) {
  const frames = useRunFrames(run.id);
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-2">
        {/* A bounded height: the log scrolls inside its card instead of growing with the page. */}
        <div className="flex h-[32rem] flex-col *:min-h-0 *:flex-1" data-testid="event-log-frame">
          <EventLog frames={frames} total={Math.max(run.lastEventSeq, frames.at(-1)?.seq ?? 0)} />
        </div>
        <div className="space-y-4">
          <UsageTable usage={run.usage} costUsd={run.costUsd} />
          <BackendUsageTable rows={run.backendUsage} />
          <SkillVersionsTable versions={run.skillVersions} bestHash={run.bestSkillHash} />
        </div>
      </div>
      <DatasetPanel runId={run.id} />
      <Card title="Configuration" bodyClassName="p-0">
        <details>
          <summary className="cursor-pointer px-3 py-2 text-xs text-gray-600 hover:text-gray-900">
            Effective configuration (YAML, preset + overrides)
          </summary>
          <pre className="max-h-96 overflow-auto border-t border-gray-100 bg-gray-50 p-3 font-mono text-xs">
            {run.sourceYaml}
          </pre>
        </details>
        <details className="border-t border-gray-100">
          <summary className="cursor-pointer px-3 py-2 text-xs text-gray-600 hover:text-gray-900">
            Resolved configuration (every key)
          </summary>
          <pre className="max-h-96 overflow-auto border-t border-gray-100 bg-gray-50 p-3 font-mono text-xs">
            {JSON.stringify(run.config, null, 2)}
          </pre>
        </details>
        <details className="border-t border-gray-100">
          <summary className="cursor-pointer px-3 py-2 text-xs text-gray-600 hover:text-gray-900">Seed skill</summary>
          <pre className="max-h-96 overflow-auto border-t border-gray-100 bg-gray-50 p-3 font-mono text-xs whitespace-pre-wrap">
            {run.seedSkill || "(empty)"}
          </pre>
        </details>
      </Card>
    </div>
  );
});
