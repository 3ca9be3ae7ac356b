"use client";
import { Button } from "@/components/ui/Button";
import { Dialog } from "@/components/ui/Dialog";
import { SLEEP_ACTIVE_STATUSES, type SleepProjectView } from "@/lib/contracts/sleep";
import { useDeleteProject } from "./sleep-api";

/** Asks before deleting a project; a project whose latest night is still queued or running is refused by the server too. */
export function DeleteProjectDialog({ project, onClose }: { project: SleepProjectView; onClose: () => void }) {
  const del = useDeleteProject(project.id);
  const active = project.lastNight !== null && SLEEP_ACTIVE_STATUSES.includes(project.lastNight.status);
  return (
    <Dialog title={`Delete “${project.name}”?`} onClose={onClose} testId="delete-project-dialog">
      {active ? (
        <p className="text-gray-700">
          A night of this project is <b>{project.lastNight!.status}</b>. Wait until it has finished; then the project
          can be deleted.
        </p>
      ) : (
        <p className="text-gray-700">
          This removes the project, its schedule (no more nightly runs) and its nights from the dashboard. Files stay:
          your live skill and memory, your agent&apos;s transcripts, and the staged folders under{" "}
          <code className="wrap-anywhere">{project.directory}/.skillopt-sleep</code>.
        </p>
      )}
      {del.error && (
        <p role="alert" className="text-xs text-red-700">
          Not deleted: {del.error.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button onClick={onClose}>{active ? "Close" : "Keep it"}</Button>
        {!active && (
          <Button
            variant="danger"
            disabled={del.isPending}
            data-testid="confirm-delete-project"
            onClick={() => del.mutate(undefined, { onSuccess: onClose })}
          >
            {del.isPending ? "Deleting…" : "Delete project"}
          </Button>
        )}
      </div>
    </Dialog>
  );
}
