import type { LeakageReport } from "@/lib/contracts/evidence";

const SPLIT: Record<string, string> = { train: "train", val: "selection", test: "test" };

/** Items shared across splits and skill lines holding selection/test data; says so plainly when clean. */
export function LeakagePanel({ report }: { report: LeakageReport }) {
  const flagged = report.skills.filter((s) => s.lines.length > 0);
  const clean = report.duplicates.length === 0 && flagged.length === 0;
  return (
    <div className="space-y-1 text-xs" data-testid="leakage-panel">
      <p className={clean ? "text-gray-600" : "font-medium text-amber-800"}>
        Leakage check: {report.duplicates.length} item pair(s) shared across splits (normalised text, word-shingle
        Jaccard ≥ {report.threshold}),{" "}
        {report.skills.map((s) => `${s.lines.length} ${s.name}-skill line(s)`).join(", ")} holding selection or test
        data — {report.itemsCompared} items compared.
      </p>
      {report.duplicates.length > 0 && (
        <ul className="list-disc pl-5 text-amber-900">
          {report.duplicates.slice(0, 20).map((d) => (
            <li key={`${d.a.id}-${d.b.id}`}>
              {d.exact ? "exact" : `near (${d.similarity.toFixed(2)})`}: {SPLIT[d.a.split]}{" "}
              <span className="font-mono">{d.a.id}</span> ↔ {SPLIT[d.b.split]}{" "}
              <span className="font-mono">{d.b.id}</span>
            </li>
          ))}
          {report.duplicates.length > 20 && <li>… and {report.duplicates.length - 20} more</li>}
        </ul>
      )}
      {flagged.map((s) => (
        <ul key={s.name} className="list-disc pl-5 text-amber-900">
          {s.lines.slice(0, 20).map((l) => (
            <li key={`${l.line}-${l.itemId}`}>
              {s.name} skill line {l.line} holds {l.kind === "gold" ? "the gold answer" : "question words"} “{l.match}”
              of {SPLIT[l.split]} item <span className="font-mono">{l.itemId}</span>
            </li>
          ))}
        </ul>
      ))}
    </div>
  );
}
