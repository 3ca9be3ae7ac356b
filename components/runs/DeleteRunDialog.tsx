"use client";
import type { RunListItem } from "@/lib/contracts/api";
import { isActiveStatus } from "../query-keys";
import { Button } from "../ui/Button";
import { Dialog } from "../ui/Dialog";
import { useDeleteRun } from "./use-runs";

/** Asks before deleting; an active run cannot be deleted (the dialog says to cancel it first). */
export function DeleteRunDialog({ run, onClose }: { run: RunListItem; onClose: () => void }) {
  const del = useDeleteRun(run.id);
  const active = isActiveStatus(run.status);
  const label = run.name || run.id.slice(0, 8);
  return (
    <Dialog title={`Delete “${label}”?`} onClose={onClose} testId="delete-dialog">
      {active ? (
        <p className="text-gray-700">
          This run is <b>{run.status}</b>.{" "}
          {run.source === "cli"
            ? "Stop its train command first; then it can be deleted."
            : "Cancel it first (on its page); once it has stopped it can be deleted."}
        </p>
      ) : (
        <p className="text-gray-700">
          This removes the run and everything recorded for it: steps, skill versions, evaluation results, events, usage
          and exports
          {run.source === "cli" ? ", and its output folder" : ""}. Uploaded data and shared splits stay. This cannot be
          undone.
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
            data-testid="confirm-delete"
            onClick={() => del.mutate(undefined, { onSuccess: onClose })}
          >
            {del.isPending ? "Deleting…" : "Delete run"}
          </Button>
        )}
      </div>
    </Dialog>
  );
}
