"use client";
import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { Dialog } from "@/components/ui/Dialog";
import { Notice } from "@/components/ui/Notice";
import type { SleepNightDetail } from "@/lib/contracts/sleep";
import { useNightAction } from "./sleep-api";

function DiscardDialog({
  night,
  onConfirm,
  onClose,
}: {
  night: SleepNightDetail;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog title="Discard this night?" onClose={onClose} testId="discard-dialog">
      <p className="text-gray-700">
        {night.stagingDir ? (
          <>
            Its staging folder <code className="wrap-anywhere">{night.stagingDir}</code> is deleted, with the staged
            proposals, report and evidence log in it.{" "}
          </>
        ) : null}
        The night stays in the list as discarded. Your live skill and memory files are not changed.
      </p>
      <div className="flex justify-end gap-2">
        <Button onClick={onClose}>Keep it</Button>
        <Button variant="danger" data-testid="confirm-discard" onClick={onConfirm}>
          Discard night
        </Button>
      </div>
    </Dialog>
  );
}

/** Adopt (only when the night staged something not adopted yet) and Discard (asked first); refusals are shown as they come. */
export function NightActions({ night }: { night: SleepNightDetail }) {
  const act = useNightAction(night.id);
  const [confirming, setConfirming] = useState(false);
  const adoptable = night.status === "staged" && night.proposals.some((p) => !p.adopted);
  const discardable = ["staged", "dry_run", "no_tasks"].includes(night.status);
  const changed = night.proposals.filter((p) => p.liveChanged && !p.adopted);
  return (
    <div className="space-y-2">
      {adoptable && changed.length > 0 && (
        <Notice tone="warn" testId="live-changed">
          {changed.map((p) => p.livePath).join(", ")} changed since this night started; adopting would overwrite that
          edit, so it will be refused. Run a new night instead.
        </Notice>
      )}
      {act.error && (
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
      {confirming && (
        <DiscardDialog
          night={night}
          onClose={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            act.mutate("discard");
          }}
        />
      )}
    </div>
  );
}
