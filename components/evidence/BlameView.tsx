"use client";
import { Fragment, useState } from "react";
import { formatP, verdictOf, type BlameLineView } from "@/lib/contracts/evidence";
import { Card } from "../ui/Card";
import { TABLE, TD, TH, THEAD } from "../ui/table";

const TONE: Record<string, string> = {
  seed: "border-l-gray-300",
  step: "border-l-indigo-400",
  epoch_boundary: "border-l-amber-400",
  final_check: "border-l-green-500",
};
const SHORT: Record<string, string> = {
  seed: "seed",
  epoch_boundary: "slow update / appendix",
  final_check: "final check",
};

/** The best skill, line by line, with the change that introduced or last changed each line. */
export function BlameView({ lines }: { lines: BlameLineView[] }) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <Card
      title="Best skill — blame"
      testId="blame-view"
      actions={<span className="text-gray-500">click a line for its edit and gate evidence</span>}
      bodyClassName="p-0"
    >
      {lines.length === 0 ? (
        <p className="p-4 text-center text-gray-500">The best skill is empty.</p>
      ) : (
        <div className="max-h-[32rem] overflow-auto">
          <table className={TABLE}>
            <thead className={THEAD}>
              <tr>
                <th className={`${TH} w-10 text-right`}>#</th>
                <th className={TH}>Line</th>
                <th className={`${TH} w-48`}>From</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => (
                <Fragment key={l.line}>
                  <tr
                    className="cursor-pointer hover:bg-gray-50"
                    data-testid="blame-line"
                    onClick={() => setOpen(open === l.line ? null : l.line)}
                  >
                    <td className={`${TD} text-right font-mono text-xs text-gray-400`}>{l.line}</td>
                    <td className={`${TD} border-l-4 font-mono text-xs whitespace-pre-wrap ${TONE[l.kind] ?? ""}`}>
                      {l.text || " "}
                    </td>
                    <td className={`${TD} text-xs text-gray-600`}>
                      {l.kind === "step"
                        ? `step ${l.step}${l.edit ? ` · ${l.edit.op} (${l.edit.sourceType})` : ""}`
                        : SHORT[l.kind]}
                    </td>
                  </tr>
                  {open === l.line && (
                    <tr>
                      <td />
                      <td colSpan={2} className="bg-gray-50 p-2 text-xs" data-testid="blame-detail">
                        <p>{l.describe}</p>
                        {l.edit && (
                          <p className="mt-1 text-gray-600">
                            Edit {l.edit.index}: {l.edit.op} from the {l.edit.sourceType} analyst
                            {l.edit.supportCount !== null ? `, supported by ${l.edit.supportCount} item(s)` : ""}.
                          </p>
                        )}
                        {l.evidence && (
                          <p className="mt-1 text-gray-600">
                            Gate: {l.evidence.improved} improved / {l.evidence.regressed} regressed of{" "}
                            {l.evidence.nPaired}, p = {formatP(l.evidence.pValue)}. {verdictOf(l.evidence)}
                          </p>
                        )}
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
