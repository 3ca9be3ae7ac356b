"use client";
import { Button } from "@/components/ui/Button";
import { Notice } from "@/components/ui/Notice";
import type { SleepNightDetail } from "@/lib/contracts/sleep";
import { useNightAction } from "./sleep-api";

/** Adopt (only when the night staged something not adopted yet) and Discard; refusals are shown as they come. */
export function NightActions({ night }: { night: SleepNightDetail }) {
  const act = useNightAction(night.id);
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
            <Button variant="danger" disabled={act.isPending} onClick={() => act.mutate("discard")}>
              Discard
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
