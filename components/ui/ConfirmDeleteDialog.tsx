"use client";
import type { ReactNode } from "react";
import { Button } from "./Button";
import { Dialog } from "./Dialog";

/** What the dialog needs of a delete mutation (react-query's useMutation result fits). */
interface DeleteMutation {
  error: Error | null;
  isPending: boolean;
  mutate(vars: undefined, opts: { onSuccess: () => void }): void;
}

/**
 * Asks before deleting something. When `blocked` is given (why it cannot be deleted now), the dialog only
 * explains and closes; otherwise it shows `consequences` and a danger button that runs the mutation.
 */
export function ConfirmDeleteDialog(props: {
  title: string;
  testId: string;
  confirmTestId: string;
  confirmLabel: string;
  blocked: ReactNode | null;
  consequences: ReactNode;
  del: DeleteMutation;
  onClose: () => void;
}) {
  const { del, onClose, blocked } = props;
  return (
    <Dialog title={props.title} onClose={onClose} testId={props.testId}>
      <p className="text-gray-700">{blocked ?? props.consequences}</p>
      {del.error && (
        <p role="alert" className="text-xs text-red-700">
          Not deleted: {del.error.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button onClick={onClose}>{blocked ? "Close" : "Keep it"}</Button>
        {!blocked && (
          <Button
            variant="danger"
            disabled={del.isPending}
            data-testid={props.confirmTestId}
            onClick={() => del.mutate(undefined, { onSuccess: onClose })}
          >
            {del.isPending ? "Deleting…" : props.confirmLabel}
          </Button>
        )}
      </div>
    </Dialog>
  );
}
