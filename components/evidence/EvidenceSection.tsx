"use client";
import type { RunDetail } from "@/lib/contracts/api";
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
export function EvidenceSection({ run }: { run: RunDetail }) {
  const active = isActiveStatus(run.status);
  const evidence = useRunEvidence(run.id, active);
  const proposals = useRunProposals(run.id, active);
  const leakage = useRunLeakage(run.id, active);
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
      {evidence.data && <GateEvidencePanel runId={run.id} evidence={evidence.data} />}
      {failed("the proposals", proposals.error)}
      {proposals.data && <ProposalExplorer runId={run.id} rows={proposals.data} />}
      <div className="grid gap-4 lg:grid-cols-2">
        <BlamePanel run={run} active={active} failed={failed} />
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
}
