"use client";
import { ConfirmDeleteDialog } from "@/components/ui/ConfirmDeleteDialog";
import { SLEEP_ACTIVE_STATUSES, type SleepProjectView } from "@/lib/contracts/sleep";
import { useDeleteProject } from "./sleep-api";

/** Asks before deleting a project; a project whose latest night is still queued or running is refused by the server too. */
export function DeleteProjectDialog({ project, onClose }: { project: SleepProjectView; onClose: () => void }) {
  const del = useDeleteProject(project.id);
  const night = project.lastNight;
  const blocked =
    night !== null && SLEEP_ACTIVE_STATUSES.includes(night.status) ? (
      <>
        A night of this project is <b>{night.status}</b>. Wait until it has finished; then the project can be deleted.
      </>
    ) : null;
  return (
    <ConfirmDeleteDialog
      title={`Delete “${project.name}”?`}
      testId="delete-project-dialog"
      confirmTestId="confirm-delete-project"
      confirmLabel="Delete project"
      blocked={blocked}
      consequences={
        <>
          This removes the project, its schedule (no more nightly runs) and its nights from the dashboard. Files stay:
          your live skill and memory, your agent&apos;s transcripts, and the staged folders under{" "}
          <code className="wrap-anywhere">{project.directory}/.skillopt-sleep</code>.
        </>
      }
      del={del}
      onClose={onClose}
    />
  );
}
