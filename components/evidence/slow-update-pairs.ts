/**
 * The per-item table behind a slow-update gate (pure): its candidate's stored rows (label `slow_update`)
 * against the current skill after the step it followed — that step's candidate when its gate adopted it,
 * else the skill the step started from (the step detail's current results).
 */
import type { StepDetail } from "@/lib/contracts/api";
import { ADOPTING_ACTIONS } from "@/lib/contracts/item-history";

export interface PairedRow {
  itemId: string;
  hard: number;
  status: string;
  currentHard: number | null;
}

export function slowUpdatePairs(
  step: Pick<StepDetail, "step" | "selection">,
  slow: readonly { itemId: string; hard: number; status: string }[],
): PairedRow[] {
  const adopted = ADOPTING_ACTIONS.has(step.step.action);
  const current = new Map(
    step.selection.map((r) => [r.itemId, adopted ? (r.status === "ok" ? r.hard : null) : r.currentHard]),
  );
  return [...slow]
    .sort((a, b) => a.itemId.localeCompare(b.itemId))
    .map((r) => ({ itemId: r.itemId, hard: r.hard, status: r.status, currentHard: current.get(r.itemId) ?? null }));
}
