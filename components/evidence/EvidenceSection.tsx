"use client";
import { memo } from "react";
import { isApiError } from "../api-client";
import { isActiveStatus } from "../query-keys";
import { Card } from "../ui/Card";
import { Notice } from "../ui/Notice";
import { BlamePanel } from "./BlamePanel";
import { GateEvidencePanel } from "./GateEvidencePanel";
import { LeakagePanel } from "./LeakagePanel";
import { ProposalExplorer } from "./ProposalExplorer";
import { useRunEvidence, useRunLeakage, useRunProposals } from "./use-evidence";

/** The run's evidence: gate statistics, every proposed edit, the blame of the best skill and leakage. */
export const EvidenceSection = memo(function EvidenceSection({
  runId,
  status,
  bestSkillHash,
}: {
  runId: string;
  status: string;
  bestSkillHash: string | null;
}) {
  const active = isActiveStatus(status);
  const evidence = useRunEvidence(runId, active);
  const proposals = useRunProposals(runId, active);
  const leakage = useRunLeakage(runId, active);
  // An unreachable server is reported once, at the top of the run page; the panels only say they wait.
  const failed = (what: string, e: Error | null) =>
    e &&
    (isApiError(e, 0) ? (
      <p className="text-xs text-gray-500">Waiting for the dashboard server to load {what}…</p>
    ) : (
      <Notice tone="error" title={`Could not load ${what}`}>
        {e.message}
      </Notice>
    ));
  return (
    <div className="space-y-4">
      {failed("the gate evidence", evidence.error)}
      {evidence.data && <GateEvidencePanel runId={runId} evidence={evidence.data} />}
      {failed("the proposals", proposals.error)}
      {proposals.data && <ProposalExplorer runId={runId} rows={proposals.data} />}
      <div className="grid gap-4 lg:grid-cols-2">
        <BlamePanel run={{ id: runId, bestSkillHash }} active={active} failed={failed} />
        <Card title="Leakage" testId="run-leakage">
          {leakage.data ? (
            <LeakagePanel report={leakage.data} />
          ) : (
            (failed("the leakage check", leakage.error) ?? <p className="text-xs text-gray-500">Checking…</p>)
          )}
        </Card>
      </div>
    </div>
  );
});
