"use client";
import { Fragment, useMemo, useState } from "react";
import { buildSideBySide } from "./diff-model";
import { toInline, unfold, type InlineLine, type InlineRow } from "./inline-model";

const BG = { context: "", removed: "bg-red-50", added: "bg-green-50" } as const;
const SEG = { removed: "bg-red-200/80", added: "bg-green-200/80" } as const;
const MARK = { context: " ", removed: "−", added: "+" } as const;

/** Old → new as one column: removed lines (red) above the added lines (green) that replace them. */
export function InlineDiff({
  oldText,
  newText,
  flagged,
  testId = "inline-diff",
}: {
  oldText: string;
  newText: string;
  /** New-side line numbers to mark (repeated lines). */
  flagged?: ReadonlySet<number>;
  testId?: string;
}) {
  const diff = useMemo(() => buildSideBySide(oldText, newText), [oldText, newText]);
  const rows = useMemo(() => toInline(diff.rows), [diff.rows]);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const visible: InlineRow[] = rows.flatMap((r) => (r.type === "fold" && open.has(r.id) ? unfold(r) : [r]));
  return (
    <div data-testid={testId} className="overflow-hidden rounded-md border border-gray-200">
      <div className="border-b border-gray-200 bg-gray-50 px-3 py-1.5 text-xs text-gray-700">
        <span className="text-red-700">−{diff.removed}</span> <span className="text-green-700">+{diff.added}</span>
        {diff.added + diff.removed === 0 && <span className="ml-2">The two versions are identical.</span>}
      </div>
      <div className="max-h-[560px] overflow-y-auto font-mono text-xs leading-5">
        {visible.map((r, i) =>
          r.type === "fold" ? (
            <button
              key={`f${r.id}`}
              type="button"
              onClick={() => setOpen((prev) => new Set(prev).add(r.id))}
              className="block w-full bg-indigo-50/60 px-3 py-0.5 text-left font-sans text-indigo-700 hover:bg-indigo-100"
            >
              ⋯ {r.rows.length} unchanged lines
            </button>
          ) : (
            <Line key={i} line={r} flagged={r.newNo !== null && (flagged?.has(r.newNo) ?? false)} />
          ),
        )}
      </div>
    </div>
  );
}

function Line({ line, flagged }: { line: InlineLine; flagged: boolean }) {
  return (
    <div
      className={`grid grid-cols-[2.75rem_2.75rem_1rem_1fr] ${BG[line.kind]} ${flagged ? "outline outline-1 -outline-offset-1 outline-amber-400" : ""}`}
      data-kind={line.kind}
    >
      <span className="pr-2 text-right text-gray-400 select-none">{line.oldNo ?? ""}</span>
      <span className="pr-2 text-right text-gray-400 select-none">{line.newNo ?? ""}</span>
      <span className={`select-none ${line.kind === "removed" ? "text-red-600" : "text-green-700"}`}>
        {MARK[line.kind]}
      </span>
      <span className="pr-3 break-words whitespace-pre-wrap text-gray-800">
        {line.segments && line.kind !== "context"
          ? line.segments.map((s, k) => (
              <Fragment key={k}>
                {s.changed ? (
                  <mark className={`${SEG[line.kind as "removed" | "added"]} rounded-sm`}>{s.text}</mark>
                ) : (
                  s.text
                )}
              </Fragment>
            ))
          : line.text || "\u00a0"}
      </span>
    </div>
  );
}
