"use client";
import { useState } from "react";
import type { RunListItem } from "@/lib/contracts/api";
import { MAX_NOTE_CHARS, splitTagInput } from "@/lib/contracts/run-list";
import { isApiError } from "../api-client";
import { Button } from "../ui/Button";
import { Dialog } from "../ui/Dialog";
import { useSetAnnotations } from "./use-runs";

const FIELD =
  "w-full rounded-md border border-gray-300 px-2 py-1.5 text-sm shadow-xs focus:border-indigo-500 focus:outline-none";

/** Edits one run's tags ("a, b" or "a b") and note; the server's field error is shown under its field. */
export function RunAnnotationsDialog({ run, onClose }: { run: RunListItem; onClose: () => void }) {
  const [tags, setTags] = useState(run.tags.join(", "));
  const [note, setNote] = useState(run.note ?? "");
  const save = useSetAnnotations(run.id);
  const err = save.error;
  const field = isApiError(err) ? (err.field ?? "") : "";
  const tagError = field.startsWith("tags") ? err?.message : undefined;
  const noteError = field === "note" ? err?.message : undefined;
  const otherError = err && !tagError && !noteError ? err.message : undefined;
  const submit = () =>
    save.mutate({ tags: splitTagInput(tags), note: note.trim() === "" ? null : note }, { onSuccess: onClose });
  return (
    <Dialog title={`Tags and note — ${run.name || run.id.slice(0, 8)}`} onClose={onClose} testId="annotations-dialog">
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label className="block space-y-1">
          <span className="text-gray-700">Tags (separate with commas or spaces)</span>
          <input
            className={FIELD}
            value={tags}
            onChange={(e) => setTags(e.target.value)}
            placeholder="baseline, seed-sweep"
            aria-invalid={tagError ? true : undefined}
            data-testid="tags-input"
            autoFocus
          />
          {tagError && <span className="block text-xs text-red-700">{tagError}</span>}
        </label>
        <label className="block space-y-1">
          <span className="text-gray-700">Note</span>
          <textarea
            className={`${FIELD} h-28`}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={MAX_NOTE_CHARS + 100}
            aria-invalid={noteError ? true : undefined}
            data-testid="note-input"
          />
          <span className="block text-xs text-gray-500">
            {note.length}/{MAX_NOTE_CHARS}
          </span>
          {noteError && <span className="block text-xs text-red-700">{noteError}</span>}
        </label>
        {otherError && (
          <p role="alert" className="text-xs text-red-700">
            {otherError}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={save.isPending} data-testid="save-annotations">
            {save.isPending ? "Saving…" : "Save"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
