"use client";
import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { ConfirmDeleteDialog } from "@/components/ui/ConfirmDeleteDialog";
import { Notice } from "@/components/ui/Notice";
import { SLEEP_DISCARDABLE_STATUSES, type SleepNightDetail } from "@/lib/contracts/sleep";
import { useNightAction } from "./sleep-api";

type NightAction = ReturnType<typeof useNightAction>;

/** Asks before a discard, with the dialog every delete uses; the mutation is the night's action set to discard. */
function DiscardDialog({ night, act, onClose }: { night: SleepNightDetail; act: NightAction; onClose: () => void }) {
  const handoff = night.status === "handoff_pending";
  return (
    <ConfirmDeleteDialog
      title="Discard this night?"
      testId="discard-dialog"
      confirmTestId="confirm-discard"
      confirmLabel="Discard night"
      blocked={null}
      consequences={
        <>
          {night.stagingDir ? (
            <>
              Its staging folder <code className="wrap-anywhere">{night.stagingDir}</code> is deleted, with the staged
              proposals, report and evidence log in it.{" "}
            </>
          ) : null}
          {handoff
            ? "The prompts it is waiting on stay where they are; running the night again starts a new record. "
            : null}
          The night stays in the list as discarded. Your live skill and memory files are not changed.
        </>
      }
      del={{ error: act.error, isPending: act.isPending, mutate: (_v, o) => act.mutate("discard", o) }}
      onClose={onClose}
    />
  );
}

/** Adopt (only when the night staged something not adopted yet) and Discard (asked first); refusals are shown as they come. */
export function NightActions({ night }: { night: SleepNightDetail }) {
  const act = useNightAction(night.id);
  const [confirming, setConfirming] = useState(false);
  const adoptable = night.status === "staged" && night.proposals.some((p) => !p.adopted);
  const discardable = SLEEP_DISCARDABLE_STATUSES.includes(night.status);
  const changed = night.proposals.filter((p) => p.liveChanged && !p.adopted);
  return (
    <div className="space-y-2">
      {adoptable && changed.length > 0 && (
        <Notice tone="warn" testId="live-changed">
          {changed.map((p) => p.livePath).join(", ")} changed since this night started; adopting would overwrite that
          edit, so it will be refused. Run a new night instead.
        </Notice>
      )}
      {act.error && !confirming && (
        <Notice tone="error" testId="action-error">
          {(act.error as Error).message}
        </Notice>
      )}
      {act.data?.status === "discarded" && (
        <Notice testId="discarded">
          Discarded{act.data.removedDir ? `; removed ${act.data.removedDir}` : ""}. The live files were not changed.
        </Notice>
      )}
      {act.data?.status === "adopted" && (
        <Notice testId="adopted">Adopted: {(act.data.updatedPaths ?? []).join(", ") || "nothing changed"}</Notice>
      )}
      {(adoptable || discardable) && (
        <div className="flex gap-2">
          {adoptable && (
            <Button variant="primary" disabled={act.isPending} onClick={() => act.mutate("adopt")}>
              Adopt
            </Button>
          )}
          {discardable && (
            <Button variant="danger" disabled={act.isPending} onClick={() => setConfirming(true)}>
              Discard
            </Button>
          )}
        </div>
      )}
      {confirming && <DiscardDialog night={night} act={act} onClose={() => setConfirming(false)} />}
    </div>
  );
}
