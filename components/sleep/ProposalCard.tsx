"use client";
import { SkillDiff } from "@/components/diff/SkillDiff";
import { Card } from "@/components/ui/Card";
import type { SleepProposalView } from "@/lib/contracts/sleep";

/** One staged proposal beside the live file it would replace, with the path adopt writes. */
export function ProposalCard({ p }: { p: SleepProposalView }) {
  return (
    <Card title={`Proposed ${p.label}${p.adopted ? " (adopted)" : ""}`} testId={`proposal-${p.label}`}>
      <p className="mb-2 text-xs text-gray-600 wrap-anywhere" data-testid="proposal-live-path">
        {p.adopted ? "Written to " : "Adopt writes "}
        <code>{p.livePath}</code>
        {!p.adopted && p.liveText === "" && " (empty or not there yet: the left side is blank)"}
      </p>
      <SkillDiff
        oldText={p.liveText}
        newText={p.proposedText}
        oldLabel={<span title={p.livePath}>Live file{p.liveChanged ? " (changed since the night started)" : ""}</span>}
        newLabel="Staged proposal"
      />
    </Card>
  );
}
