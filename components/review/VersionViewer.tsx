"use client";
import { useMemo, useState } from "react";
import { findRepeatedLines, type RepeatedLine } from "../diff/duplicate-lines";
import { InlineDiff } from "../diff/InlineDiff";
import { SkillDiff } from "../diff/SkillDiff";
import { Notice } from "../ui/Notice";
import { useSkillVersion, versionDownloadUrl } from "./review-api";

type Mode = "side" | "inline" | "text";
const MODES: Array<{ key: Mode; label: string }> = [
  { key: "side", label: "Side by side" },
  { key: "inline", label: "Inline" },
  { key: "text", label: "Text" },
];

/** Version A → version B as a diff (side by side or inline) or B's text, with B's repeated lines flagged. */
export function VersionViewer({ runId, a, b }: { runId: string; a: string | null; b: string }) {
  const [mode, setMode] = useState<Mode>("side");
  const left = useSkillVersion(runId, a);
  const right = useSkillVersion(runId, b);
  const repeated = useMemo(() => (right.data ? findRepeatedLines(right.data.content) : []), [right.data]);
  const flagged = useMemo(() => new Set(repeated.map((r) => r.line)), [repeated]);
  const effective: Mode = a === null ? "text" : mode;
  const err = right.error ?? left.error;
  if (err) return <Notice tone="error">Could not load the version: {err.message}</Notice>;
  if (!right.data || (a !== null && !left.data))
    return <p className="py-4 text-center text-gray-500">Loading the version…</p>;
  const oldText = left.data?.content ?? "";
  return (
    <div className="space-y-2" data-testid="version-viewer">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
        <span className="font-medium text-gray-800" data-testid="version-pair">
          {a === null ? right.data.label : `${left.data!.label} → ${right.data.label}`}
        </span>
        <div className="flex gap-1" role="group" aria-label="Diff layout">
          {MODES.map((m) => (
            <button
              key={m.key}
              type="button"
              disabled={a === null && m.key !== "text"}
              aria-pressed={effective === m.key}
              onClick={() => setMode(m.key)}
              className={`rounded border px-2 py-0.5 disabled:opacity-40 ${effective === m.key ? "border-indigo-300 bg-indigo-50 text-indigo-800" : "border-gray-200 text-gray-600 hover:bg-gray-50"}`}
            >
              {m.label}
            </button>
          ))}
        </div>
        {a !== null && (
          <a className="text-indigo-700 hover:underline" href={versionDownloadUrl(runId, a)} download>
            Download A
          </a>
        )}
        <a className="text-indigo-700 hover:underline" href={versionDownloadUrl(runId, b)} download>
          Download {a === null ? "" : "B"}
        </a>
      </div>
      <RepeatedNotice repeated={repeated} label={right.data.label} />
      {effective === "side" && (
        <SkillDiff
          testId="version-diff"
          oldText={oldText}
          newText={right.data.content}
          oldLabel={<>A · {left.data!.label}</>}
          newLabel={<>B · {right.data.label}</>}
        />
      )}
      {effective === "inline" && (
        <InlineDiff oldText={oldText} newText={right.data.content} flagged={flagged} testId="version-inline" />
      )}
      {effective === "text" && <VersionText text={right.data.content} flagged={flagged} />}
    </div>
  );
}

function RepeatedNotice({ repeated, label }: { repeated: RepeatedLine[]; label: string }) {
  if (repeated.length === 0) return null;
  return (
    <Notice tone="warn">
      <span data-testid="repeated-lines">
        {repeated.length === 1 ? "One line" : `${repeated.length} lines`} of the {label}{" "}
        {repeated.length === 1 ? "repeats" : "repeat"} an earlier line:{" "}
        {repeated
          .slice(0, 6)
          .map(
            (r) =>
              `line ${r.line} ${r.kind === "exact" ? "repeats" : `nearly repeats (${Math.round(r.similarity * 100)}% of words)`} line ${r.of}`,
          )
          .join("; ")}
        {repeated.length > 6 && `; and ${repeated.length - 6} more`}. A repeated rule adds length, not guidance.
      </span>
    </Notice>
  );
}

function VersionText({ text, flagged }: { text: string; flagged: ReadonlySet<number> }) {
  const lines = text.replace(/\n$/, "").split("\n");
  return (
    <div
      className="max-h-[560px] overflow-y-auto rounded-md border border-gray-200 font-mono text-xs leading-5"
      data-testid="version-text"
    >
      {lines.map((l, i) => (
        <div
          key={i}
          className={`grid grid-cols-[2.75rem_1fr] ${flagged.has(i + 1) ? "bg-amber-50" : ""}`}
          data-repeated={flagged.has(i + 1) || undefined}
        >
          <span className="pr-2 text-right text-gray-400 select-none">{i + 1}</span>
          <span className="pr-3 break-words whitespace-pre-wrap text-gray-800">{l || "\u00a0"}</span>
        </div>
      ))}
    </div>
  );
}
