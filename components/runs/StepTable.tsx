"use client";
import { memo, useMemo, useState } from "react";
import type { StepRow } from "@/lib/contracts/api";
import { describeCoverage, isPartial } from "@/lib/contracts/coverage";
import { formatScore } from "../format";
import { ActionBadge } from "../ui/ActionBadge";
import { Card } from "../ui/Card";
import { ShowMore } from "../ui/ShowMore";
import { TABLE, TD, TD_NUM, TH, TH_NUM, THEAD } from "../ui/table";

const PAGE = 100;

/**
 * The step timeline, latest first. Rows are capped (100, then "show more") so a 1,000-step run renders
 * quickly; a selected step further down extends the cap so it is always visible. Memoised: it redraws when
 * the steps or the selection change, not on every re-render of the page.
 */
export const StepTable = memo(function StepTable({
  steps,
  selectedStep,
  onSelectStep,
}: {
  steps: StepRow[];
  selectedStep: number | null;
  onSelectStep: (step: number) => void;
}) {
  const [limit, setLimit] = useState(PAGE);
  const ordered = useMemo(() => [...steps].reverse(), [steps]);
  const selectedIndex = selectedStep === null ? -1 : ordered.findIndex((s) => s.step === selectedStep);
  const shown = Math.max(limit, selectedIndex + 1);
  const rows = ordered.slice(0, shown);
  const counts = useMemo(() => countActions(steps), [steps]);

  return (
    <Card
      title={`Steps (${steps.length})`}
      bodyClassName=""
      actions={
        <span className="flex flex-wrap gap-x-3 text-gray-500">
          {Object.entries(counts).map(([action, n]) => (
            <span key={action}>
              {action} <b className="text-gray-700">{n}</b>
            </span>
          ))}
        </span>
      }
    >
      {steps.length === 0 ? (
        <p className="px-3 py-6 text-center text-gray-500">No step has been committed yet.</p>
      ) : (
        <div className="max-h-80 overflow-y-auto">
          <table className={TABLE} data-testid="steps-table">
            <thead className={THEAD}>
              <tr>
                <th className={TH}>Step</th>
                <th className={TH}>Epoch</th>
                <th className={TH}>Gate</th>
                <th className={TH_NUM}>Train hard / soft</th>
                <th className={TH_NUM}>Candidate</th>
                <th className={TH_NUM}>Current</th>
                <th className={TH_NUM}>Best</th>
                <th className={TH_NUM} title="budget · proposed → merged → selected → applied">
                  Edits (budget · prop → merged → sel → applied)
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <StepTableRow
                  key={s.step}
                  s={s}
                  selected={s.step === selectedStep}
                  onSelect={() => onSelectStep(s.step)}
                />
              ))}
            </tbody>
          </table>
          <ShowMore shown={rows.length} total={ordered.length} step={PAGE * 2} onChange={setLimit} noun="steps" />
        </div>
      )}
    </Card>
  );
});

function StepTableRow({ s, selected, onSelect }: { s: StepRow; selected: boolean; onSelect: () => void }) {
  return (
    <tr
      data-testid={`step-row-${s.step}`}
      aria-selected={selected}
      onClick={onSelect}
      className={`cursor-pointer ${selected ? "bg-indigo-50" : "hover:bg-gray-50"}`}
    >
      <td className={TD}>
        {/* The row's click handler receives this button's click (and Enter/Space) by bubbling. */}
        <button type="button" className="font-medium text-indigo-700 hover:underline">
          Step {s.step}
        </button>
      </td>
      <td className={`${TD} text-gray-600`}>
        {s.epoch} · #{s.stepInEpoch}
      </td>
      <td className={TD}>
        <ActionBadge action={s.action} />
      </td>
      <td className={TD_NUM}>
        {formatScore(s.trainHard)} <span className="text-gray-400">/</span> {formatScore(s.trainSoft)}
      </td>
      <td className={TD_NUM}>
        {formatScore(s.candidateScore)}
        {isPartial(s.coverage) && (
          <span
            className="ml-1 text-xs text-amber-700"
            title={describeCoverage(s.coverage)}
            data-testid={`step-coverage-${s.step}`}
          >
            ({s.coverage.nPaired}/{s.coverage.nItems})
          </span>
        )}
      </td>
      <td className={TD_NUM}>{formatScore(s.currentScore)}</td>
      <td className={`${TD_NUM} font-medium`}>{formatScore(s.bestScore)}</td>
      <td className={`${TD_NUM} text-gray-700`}>
        {s.budget ?? "—"} · {s.nFailurePatches + s.nSuccessPatches} → {s.nMerged} → {s.nRanked} → {s.nApplied}
      </td>
    </tr>
  );
}

function countActions(steps: StepRow[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of steps) out[s.action] = (out[s.action] ?? 0) + 1;
  return out;
}
