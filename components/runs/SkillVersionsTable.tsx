"use client";
import { useMemo, useState } from "react";
import type { SkillVersionMeta } from "@/lib/contracts/api";
import { formatScore, shortHash } from "../format";
import { ActionBadge } from "../ui/ActionBadge";
import { Card } from "../ui/Card";
import { ShowMore } from "../ui/ShowMore";
import { TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "../ui/table";

const PAGE = 50;

/** Every skill the run produced (seed, candidates, slow updates, final), latest first; the best one is marked. */
export function SkillVersionsTable({ versions, bestHash }: { versions: SkillVersionMeta[]; bestHash: string | null }) {
  const [limit, setLimit] = useState(PAGE);
  const ordered = useMemo(() => [...versions].reverse(), [versions]);
  return (
    <Card title={`Skill versions (${versions.length})`} bodyClassName="">
      {versions.length === 0 ? (
        <p className="px-3 py-4 text-center text-gray-500">The seed skill is recorded when the baseline is scored.</p>
      ) : (
        <div className="max-h-80 overflow-y-auto">
          <table className={TABLE} data-testid="skill-versions">
            <thead className={THEAD}>
              <tr>
                <th className={TH}>Kind</th>
                <th className={TH_NUM}>Step</th>
                <th className={TH}>Status</th>
                <th className={TH}>Hash</th>
                <th className={TH_NUM}>Selection</th>
                <th className={TH_NUM}>Gate</th>
                <th className={TH_NUM}>Chars</th>
              </tr>
            </thead>
            <tbody>
              {ordered.slice(0, limit).map((v) => (
                <tr key={`${v.kind}:${v.step}`} className="hover:bg-gray-50">
                  <td className={`${TD} text-xs`}>{v.kind.replace("_", " ")}</td>
                  <td className={TD_NUM}>{v.step}</td>
                  <td className={TD}>
                    <ActionBadge action={v.status} />
                  </td>
                  <td className={`${TD} font-mono text-xs`}>
                    {shortHash(v.contentHash)}
                    {bestHash !== null && v.contentHash === bestHash && (
                      <span className="ml-1 font-sans font-medium text-emerald-700">★ best</span>
                    )}
                  </td>
                  <td className={TD_NUM}>{formatScore(v.selectionHard)}</td>
                  <td className={TD_NUM}>{formatScore(v.gateScore)}</td>
                  <td className={TD_NUM}>{v.chars.toLocaleString("en-US")}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <ShowMore
            shown={Math.min(limit, ordered.length)}
            total={ordered.length}
            step={PAGE * 4}
            onChange={setLimit}
            noun="versions"
          />
        </div>
      )}
    </Card>
  );
}
