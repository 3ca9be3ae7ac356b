"use client";
import { useState } from "react";
import type { ItemChange } from "@/lib/contracts/item-history";
import { changeWindow } from "./item-filter";

/**
 * Where an item's current result was fixed (↑) or broken (↓); a click opens that step. A row with many
 * changes shows its first and last ones and a button for the rest, so a 1,000-step run's table stays light.
 */
export function ItemChanges({ changes, onPick }: { changes: readonly ItemChange[]; onPick: (step: number) => void }) {
  const [all, setAll] = useState(false);
  const w = changeWindow(changes);
  const button = (c: ItemChange, i: number) => (
    <button
      key={i}
      type="button"
      onClick={() => onPick(c.step)}
      className={`rounded px-1 hover:underline ${c.to === "fixed" ? "bg-green-50 text-green-800" : "bg-red-50 text-red-800"}`}
    >
      {c.to === "fixed" ? "↑" : "↓"} step {c.step}
    </button>
  );
  if (all || w.hidden === 0) return <span className="flex flex-wrap gap-1">{changes.map(button)}</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {w.head.map(button)}
      <button
        type="button"
        aria-expanded={false}
        onClick={() => setAll(true)}
        className="rounded px-1 text-indigo-700 hover:underline"
        title="Show every change of this item"
      >
        … {w.hidden} more
      </button>
      {w.tail.map((c, i) => button(c, changes.length - w.tail.length + i))}
    </span>
  );
}
