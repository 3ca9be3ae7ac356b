"use client";
import { HoverPrefetchLink } from "@/components/ui/HoverPrefetchLink";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { formatTimestamp } from "@/components/format";
import { Badge } from "@/components/ui/Badge";
import { Button } from "@/components/ui/Button";
import { Notice } from "@/components/ui/Notice";
import type { SleepProjectView } from "@/lib/contracts/sleep";
import { DeleteProjectDialog } from "./DeleteProjectDialog";
import { NightStatusBadge } from "./NightStatusBadge";
import { useRunNight } from "./sleep-api";

/** The projects with their schedule and the Run now / Dry run / Edit / Delete actions. */
export function ProjectList({
  projects,
  onEdit,
}: {
  projects: SleepProjectView[];
  onEdit: (p: SleepProjectView) => void;
}) {
  const run = useRunNight();
  const router = useRouter();
  const [deleting, setDeleting] = useState<SleepProjectView | null>(null);
  if (projects.length === 0)
    return (
      <p className="p-3 text-gray-500">No Sleep projects yet. Add one to run nights from here and on a schedule.</p>
    );
  const start = (projectId: string, dryRun: boolean) =>
    run.mutate({ projectId, dryRun }, { onSuccess: (r) => router.push(`/sleep/nights/${r.id}`) });
  return (
    <div>
      {run.error && (
        <div className="p-3">
          <Notice tone="error">{(run.error as Error).message}</Notice>
        </div>
      )}
      <ul className="divide-y divide-gray-100">
        {projects.map((p) => (
          <li
            key={p.id}
            className="flex flex-wrap items-center justify-between gap-3 px-3 py-2"
            data-testid="sleep-project"
          >
            <div className="min-w-0">
              <div className="flex items-center gap-2 font-medium">
                {p.name}
                <Badge tone="gray">{p.transcriptSource}</Badge>
                <Badge
                  tone={p.backend === "mock" ? "amber" : "blue"}
                  title={p.backend === "mock" ? "Deterministic mock backend: scores are synthetic" : undefined}
                >
                  {p.backend}
                </Badge>
                {p.lastNight && (
                  <HoverPrefetchLink href={`/sleep/nights/${p.lastNight.id}`} className="text-xs">
                    <NightStatusBadge status={p.lastNight.status} />
                  </HoverPrefetchLink>
                )}
              </div>
              <div className="truncate text-xs text-gray-600" title={p.directory}>
                {p.directory}
              </div>
              <div className="text-xs text-gray-600" data-testid="sleep-schedule">
                {p.cronPattern
                  ? `Schedule ${p.cronPattern} — ${p.enabled ? `on, next ${formatTimestamp(p.nextRunAt)}` : "off"}`
                  : "No schedule"}
              </div>
            </div>
            <div className="flex gap-2">
              <Button variant="primary" disabled={run.isPending} onClick={() => start(p.id, false)}>
                Run now
              </Button>
              <Button disabled={run.isPending} onClick={() => start(p.id, true)}>
                Dry run
              </Button>
              <Button variant="ghost" onClick={() => onEdit(p)}>
                Edit
              </Button>
              <Button variant="ghost" onClick={() => setDeleting(p)}>
                Delete
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {deleting && <DeleteProjectDialog project={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}
