"use client";
import { useState } from "react";
import type { VersionEntry } from "@/lib/contracts/skill-versions";
import { formatScore, shortHash } from "../format";
import { ActionBadge } from "../ui/ActionBadge";
import { Card } from "../ui/Card";
import { Notice } from "../ui/Notice";
import { TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "../ui/table";
import { VersionViewer } from "./VersionViewer";
import { useSkillVersions, versionDownloadUrl } from "./review-api";

const KIND: Record<VersionEntry["kind"], string> = {
  seed: "seed",
  candidate: "candidate",
  appendix_flush: "appendix flush",
  slow_update: "slow update",
  meta_skill: "meta skill",
  final: "final",
};

/**
 * Every skill the run produced, including appendix flushes, slow updates and meta skills. "Open" shows a
 * version against what it was made from; the A / B columns pick any two to compare.
 */
export function VersionBrowser({
  runId,
  stepsDone,
  bestHash,
}: {
  runId: string;
  stepsDone: number;
  bestHash: string | null;
}) {
  const [open, setOpen] = useState(false);
  const { data, error, isPending } = useSkillVersions(runId, open, stepsDone);
  const [pair, setPair] = useState<{ a: string | null; b: string } | null>(null);
  const versions = data?.versions ?? [];
  const last = versions.at(-1);
  // Until the user picks: the whole run's change, seed → last version.
  const shown = pair ?? (last ? { a: last.ref === "seed" ? null : "seed", b: last.ref } : null);
  return (
    <Card
      title={open && data ? `Skill version browser (${versions.length})` : "Skill version browser"}
      testId="version-browser"
      actions={
        <button
          type="button"
          className="font-medium text-indigo-700 hover:underline"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? "Hide" : "Open, compare and download any version"}
        </button>
      }
      bodyClassName={open ? "space-y-3 p-3" : "hidden"}
    >
      {open &&
        (error && !data ? (
          <Notice tone="error">Could not load the versions: {error.message}</Notice>
        ) : isPending || !data ? (
          <p className="py-4 text-center text-gray-500">Loading versions…</p>
        ) : versions.length === 0 ? (
          <p className="py-4 text-center text-gray-500">The seed skill is recorded when the baseline is scored.</p>
        ) : (
          <>
            <div className="max-h-72 overflow-y-auto rounded-md border border-gray-200">
              <table className={TABLE} data-testid="version-list">
                <thead className={THEAD}>
                  <tr>
                    <th className={TH} title="left side of the comparison">
                      A
                    </th>
                    <th className={TH} title="right side of the comparison">
                      B
                    </th>
                    <th className={TH}>Version</th>
                    <th className={TH}>Status</th>
                    <th className={TH}>Hash</th>
                    <th className={TH_NUM}>Selection</th>
                    <th className={TH_NUM}>Chars</th>
                    <th className={TH}></th>
                  </tr>
                </thead>
                <tbody>
                  {versions.map((v) => (
                    <tr
                      key={v.ref}
                      data-testid={`version-${v.ref}`}
                      className={shown?.b === v.ref ? "bg-indigo-50" : "hover:bg-gray-50"}
                    >
                      <td className={TD}>
                        <input
                          type="radio"
                          name="version-a"
                          aria-label={`compare from ${v.label}`}
                          checked={shown?.a === v.ref}
                          onChange={() => shown && setPair({ a: v.ref, b: shown.b })}
                        />
                      </td>
                      <td className={TD}>
                        <input
                          type="radio"
                          name="version-b"
                          aria-label={`compare to ${v.label}`}
                          checked={shown?.b === v.ref}
                          onChange={() => setPair({ a: shown?.a ?? null, b: v.ref })}
                        />
                      </td>
                      <td className={`${TD} text-xs`}>
                        <span className="mr-1 rounded bg-gray-100 px-1 text-gray-600">{KIND[v.kind]}</span>
                        {v.label}
                      </td>
                      <td className={TD}>{v.status && <ActionBadge action={v.status} />}</td>
                      <td className={`${TD} font-mono text-xs`}>
                        {v.hash ? shortHash(v.hash) : "—"}
                        {bestHash !== null && v.hash === bestHash && v.kind !== "final" && (
                          <span className="ml-1 font-sans font-medium text-emerald-700">★ best</span>
                        )}
                      </td>
                      <td className={TD_NUM}>{formatScore(v.selectionHard)}</td>
                      <td className={TD_NUM}>{v.chars === null ? "—" : v.chars.toLocaleString("en-US")}</td>
                      <td className={`${TD} text-xs whitespace-nowrap`}>
                        <button
                          type="button"
                          className="text-indigo-700 hover:underline"
                          title={v.parentLabel ? `diff against the ${v.parentLabel}` : "its text"}
                          onClick={() => setPair({ a: v.parentRef, b: v.ref })}
                        >
                          Open
                        </button>
                        {" · "}
                        <a className="text-indigo-700 hover:underline" href={versionDownloadUrl(runId, v.ref)} download>
                          Download
                        </a>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {shown && <VersionViewer runId={runId} a={shown.a} b={shown.b} />}
          </>
        ))}
    </Card>
  );
}
