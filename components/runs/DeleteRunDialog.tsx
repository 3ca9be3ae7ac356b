"use client";
import type { RunListItem } from "@/lib/contracts/api";
import { isActiveStatus } from "../query-keys";
import { ConfirmDeleteDialog } from "../ui/ConfirmDeleteDialog";
import { useDeleteRun } from "./use-runs";

/** Asks before deleting; an active run cannot be deleted (the dialog says to cancel it first). */
export function DeleteRunDialog({ run, onClose }: { run: RunListItem; onClose: () => void }) {
  const del = useDeleteRun(run.id);
  const blocked = isActiveStatus(run.status) ? (
    <>
      This run is <b>{run.status}</b>.{" "}
      {run.source === "cli"
        ? "Stop its train command first; then it can be deleted."
        : "Cancel it first (on its page); once it has stopped it can be deleted."}
    </>
  ) : null;
  return (
    <ConfirmDeleteDialog
      title={`Delete “${run.name || run.id.slice(0, 8)}”?`}
      testId="delete-dialog"
      confirmTestId="confirm-delete"
      confirmLabel="Delete run"
      blocked={blocked}
      consequences={
        <>
          This removes the run and everything recorded for it: steps, skill versions, evaluation results, events, usage
          and exports
          {run.source === "cli" ? ", and its output folder" : ""}. Uploaded data and shared splits stay. This cannot be
          undone.
        </>
      }
      del={del}
      onClose={onClose}
    />
  );
}
