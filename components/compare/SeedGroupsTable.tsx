import type { CompareResponse } from "@/lib/contracts/api";
import { formatCost, formatCount, formatDelta, formatScore } from "../format";
import { Card } from "../ui/Card";
import { TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "../ui/table";
import { SEED_MEASURES, seedGroupsOf, type Spread } from "./seed-groups";

const FORMAT = { score: formatScore, delta: formatDelta, count: formatCount, cost: formatCost } as const;

/** Shown when several seeds of one config are selected: mean ± spread per measure, per config. */
export function SeedGroupsTable({ runs }: { runs: CompareResponse["runs"] }) {
  const groups = seedGroupsOf(runs);
  if (groups.length === 0) return null;
  return (
    <Card title="Over seeds (same config, different seeds): mean ± standard deviation" bodyClassName="">
      <div className="overflow-x-auto">
        <table className={TABLE} data-testid="seed-groups">
          <thead className={THEAD}>
            <tr>
              <th className={TH}>Config</th>
              {SEED_MEASURES.map((m) => (
                <th key={m.key} className={TH_NUM}>
                  {m.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={g.group} className="align-top hover:bg-gray-50">
                <td className={`${TD} max-w-64`}>
                  <div className="font-medium">
                    {g.runs.length} seeds: {g.runs.map((r) => r.name || r.id.slice(0, 8)).join(", ")}
                  </div>
                  <div className="text-xs text-gray-500">{g.seedSummary.join(" · ") || "same seed values"}</div>
                </td>
                {SEED_MEASURES.map((m) => (
                  <td key={m.key} className={TD_NUM} data-testid={`seed-${m.key}`}>
                    <SpreadCell s={g.stats[m.key]} format={FORMAT[m.kind]} of={g.runs.length} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function SpreadCell({ s, format, of }: { s: Spread; format: (v: number | null) => string; of: number }) {
  if (s.mean === null) return <span className="text-gray-400">—</span>;
  return (
    <span title={`min ${format(s.min)} · max ${format(s.max)} · ${s.n} of ${of} runs`}>
      {format(s.mean)}
      {s.sd !== null && <span className="text-gray-500"> ± {format(s.sd).replace(/^[+±−]/, "")}</span>}
      {s.n < of && (
        <div className="text-xs text-gray-500">
          {s.n} of {of} runs
        </div>
      )}
    </span>
  );
}
