"use client";
import { memo, useState } from "react";
import type { ItemEvaluation, ItemHistoryRow, ResultCode } from "@/lib/contracts/item-history";
import { TD } from "../ui/table";
import { CODE_WORD, ItemStrip } from "./ItemStrip";
import { latestResult } from "./item-filter";

/** Changes listed before "+N more": an item that flips at every other step would fill the screen. */
export const CHANGES_SHOWN = 6;

const textColor = (c: ResultCode) => ({ "1": "#047857", "0": "#b91c1c", e: "#b45309", ".": "#6b7280" })[c];

/** One item's row of the item-history table: its strip, its latest result and the steps that changed it. */
export const ItemHistoryRowView = memo(function ItemHistoryRowView({
  row: r,
  evaluations,
  onSelectStep,
  measureRef,
}: {
  row: ItemHistoryRow;
  evaluations: readonly ItemEvaluation[];
  onSelectStep: (step: number) => void;
  measureRef: (el: HTMLElement | null) => (() => void) | undefined;
}) {
  const [allChanges, setAllChanges] = useState(false);
  const now = latestResult(r);
  const changes = allChanges ? r.changes : r.changes.slice(0, CHANGES_SHOWN);
  const hidden = r.changes.length - changes.length;
  return (
    <tr data-testid="item-history-row" data-key={r.id} ref={measureRef}>
      <td className={`${TD} font-mono text-xs`}>{r.id}</td>
      <td className={TD}>
        <ItemStrip current={r.current} cells={r.cells} evaluations={evaluations} onPick={onSelectStep} />
      </td>
      <td className={`${TD} text-xs whitespace-nowrap`} style={{ color: textColor(now) }}>
        {CODE_WORD[now]}
      </td>
      <td className={`${TD} text-xs`}>
        <span className="flex flex-wrap gap-1">
          {changes.map((c, i) => (
            <button
              key={i}
              type="button"
              onClick={() => onSelectStep(c.step)}
              className={`rounded px-1 hover:underline ${c.to === "fixed" ? "bg-green-50 text-green-800" : "bg-red-50 text-red-800"}`}
            >
              {c.to === "fixed" ? "↑" : "↓"} step {c.step}
            </button>
          ))}
          {(hidden > 0 || allChanges) && r.changes.length > CHANGES_SHOWN && (
            <button
              type="button"
              className="px-1 text-indigo-700 hover:underline"
              aria-expanded={allChanges}
              onClick={() => setAllChanges((a) => !a)}
            >
              {allChanges ? "fewer" : `+${hidden} more`}
            </button>
          )}
        </span>
      </td>
      <td className={`${TD} max-w-48 text-xs break-words text-gray-700`}>{r.reference ?? "—"}</td>
      <td className={`${TD} max-w-48 text-xs break-words`}>{r.lastPrediction ?? "—"}</td>
    </tr>
  );
});
