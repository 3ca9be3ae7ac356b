"use client";
import { Fragment, useMemo, useState, type ReactNode } from "react";
import { buildSideBySide, type DiffCell, type DiffRow, type LineRow } from "./diff-model";

const CELL_BG: Record<DiffCell["kind"], string> = {
  context: "",
  removed: "bg-red-50",
  added: "bg-green-50",
  empty: "bg-gray-50 bg-[repeating-linear-gradient(135deg,transparent_0_6px,#f3f4f6_6px_8px)]",
};
const MARK: Record<DiffCell["kind"], string> = { context: " ", removed: "−", added: "+", empty: " " };
const SEG_BG = { removed: "bg-red-200/80", added: "bg-green-200/80" } as const;

/**
 * Current → candidate, side by side. Both columns are CSS subgrids of one grid, so rows stay aligned
 * while long lines wrap. Removed lines are red on the left, added lines green on the right.
 */
export function SkillDiff({
  oldText,
  newText,
  oldLabel,
  newLabel,
  testId = "step-diff",
}: {
  oldText: string;
  newText: string;
  oldLabel: ReactNode;
  newLabel: ReactNode;
  testId?: string;
}) {
  const diff = useMemo(() => buildSideBySide(oldText, newText), [oldText, newText]);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const visible = useMemo(() => expand(diff.rows, open), [diff.rows, open]);
  const toggle = (id: number) => setOpen((prev) => new Set(prev).add(id));

  return (
    <div data-testid={testId} className="overflow-hidden rounded-md border border-gray-200">
      <div className="grid grid-cols-2 border-b border-gray-200 bg-gray-50 text-xs font-medium text-gray-700">
        <div className="border-r border-gray-200 px-3 py-1.5">
          {oldLabel} <span className="ml-2 text-red-700">−{diff.removed}</span>
        </div>
        <div className="px-3 py-1.5">
          {newLabel} <span className="ml-2 text-green-700">+{diff.added}</span>
        </div>
      </div>
      {diff.added + diff.removed === 0 && (
        <p className="border-b border-gray-100 px-3 py-1.5 text-xs text-gray-600">
          The candidate is identical to the current skill.
        </p>
      )}
      <div
        className="grid max-h-[560px] grid-cols-2 overflow-y-auto font-mono text-xs leading-5"
        style={{ gridTemplateRows: `repeat(${visible.length}, auto)` }}
      >
        <Column side="left" rows={visible} onExpand={toggle} />
        <Column side="right" rows={visible} onExpand={toggle} />
      </div>
    </div>
  );
}

function expand(rows: DiffRow[], open: ReadonlySet<number>): DiffRow[] {
  return rows.flatMap((r) => (r.type === "fold" && open.has(r.id) ? r.rows : [r]));
}

function Column({ side, rows, onExpand }: { side: "left" | "right"; rows: DiffRow[]; onExpand: (id: number) => void }) {
  return (
    <div
      data-testid={side === "left" ? "diff-left" : "diff-right"}
      className={`grid grid-rows-subgrid ${side === "left" ? "border-r border-gray-200" : ""}`}
      style={{ gridRow: `1 / span ${Math.max(1, rows.length)}`, gridColumn: side === "left" ? 1 : 2 }}
    >
      {rows.map((row, i) =>
        row.type === "fold" ? (
          <button
            key={`f${row.id}`}
            type="button"
            onClick={() => onExpand(row.id)}
            className="bg-indigo-50/60 px-3 py-0.5 text-left font-sans text-indigo-700 hover:bg-indigo-100"
          >
            ⋯ {row.rows.length} unchanged lines
          </button>
        ) : (
          <Line key={i} cell={side === "left" ? (row as LineRow).left : (row as LineRow).right} />
        ),
      )}
    </div>
  );
}

function Line({ cell }: { cell: DiffCell }) {
  return (
    <div className={`grid grid-cols-[2.75rem_1rem_1fr] ${CELL_BG[cell.kind]}`}>
      <span className="pr-2 text-right text-gray-400 select-none">{cell.lineNo ?? ""}</span>
      <span className={`select-none ${cell.kind === "removed" ? "text-red-600" : "text-green-700"}`}>
        {MARK[cell.kind]}
      </span>
      <span className="pr-3 break-words whitespace-pre-wrap text-gray-800">
        {cell.segments && (cell.kind === "removed" || cell.kind === "added")
          ? cell.segments.map((s, k) => (
              <Fragment key={k}>
                {s.changed ? (
                  <mark className={`${SEG_BG[cell.kind as "removed" | "added"]} rounded-sm text-inherit`}>
                    {s.text}
                  </mark>
                ) : (
                  s.text
                )}
              </Fragment>
            ))
          : cell.text || "\u00a0"}
      </span>
    </div>
  );
}
