"use client";
import { HoverPrefetchLink } from "@/components/ui/HoverPrefetchLink";
import { formatCount, formatScore, formatTimestamp } from "@/components/format";
import { Badge } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";
import { Notice } from "@/components/ui/Notice";
import type { SleepEditView, SleepNightDetail } from "@/lib/contracts/sleep";
import { GateTable } from "./GateTable";
import { HandoffNotice } from "./HandoffNotice";
import { NightActions } from "./NightActions";
import { NightStatusBadge } from "./NightStatusBadge";
import { ProposalCard } from "./ProposalCard";
import { useSleepNight } from "./sleep-api";

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-md border border-gray-200 bg-white px-3 py-2">
      <div className="text-xs text-gray-500">{label}</div>
      <div className="font-medium tabular-nums" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

function Edits({ title, edits }: { title: string; edits: SleepEditView[] }) {
  if (edits.length === 0) return null;
  return (
    <div>
      <h3 className="px-3 pt-2 text-xs font-semibold text-gray-700">{title}</h3>
      <ul className="space-y-1 px-3 py-2 text-xs">
        {edits.map((e, i) => (
          <li key={i}>
            <Badge tone="gray">{`${e.target}/${e.op}`}</Badge> <span className="font-mono">{e.content}</span>
            {e.rationale && <span className="text-gray-500"> — {e.rationale}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Summary({ n }: { n: SleepNightDetail }) {
  return (
    <div className="grid grid-cols-2 gap-2 md:grid-cols-4 xl:grid-cols-8">
      <Stat label="Sessions" value={formatCount(n.nSessions)} />
      <Stat
        label="Tasks (train/val/test)"
        value={`${n.nTasks} (${n.nTrain}/${n.nVal}/${n.nTest})`}
        testId="night-tasks"
      />
      <Stat
        label="Baseline → candidate"
        value={`${formatScore(n.baselineScore)} → ${formatScore(n.candidateScore)}`}
        testId="night-scores"
      />
      <Stat label="Gate" value={n.gateAction || "—"} testId="night-gate" />
      <Stat
        label="Edits accepted / rejected / unmatched"
        value={`${n.editsAccepted} / ${n.editsRejected} / ${n.editsUnmatched}`}
      />
      <Stat label="Tokens" value={formatCount(n.tokensUsed)} />
      <Stat label="Backend" value={n.backend || "—"} />
      <Stat label="Started" value={formatTimestamp(n.startedAt ?? n.createdAt)} />
    </div>
  );
}

/** One night: its figures, its staged proposals beside the live files, the per-task gate table, Adopt / Discard. */
export function NightView({ id }: { id: string }) {
  const q = useSleepNight(id);
  if (q.error) return <Notice tone="error">{(q.error as Error).message}</Notice>;
  const n = q.data;
  if (!n) return <p className="text-gray-500">Loading night…</p>;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <HoverPrefetchLink href="/sleep" className="text-indigo-700 hover:underline">
          Sleep
        </HoverPrefetchLink>
        <h1 className="min-w-0 text-lg font-semibold wrap-anywhere">{`${n.projectName ?? n.projectDir} — night ${n.night > 0 ? `#${n.night}` : "(waiting)"}${n.dryRun ? " (dry run)" : ""}`}</h1>
        <NightStatusBadge status={n.status} />
        {n.backend === "mock" && <Badge tone="amber">Mock backend — scores are synthetic</Badge>}
      </div>
      <Summary n={n} />
      {n.status === "handoff_pending" && <HandoffNotice n={n} />}
      {n.error && n.status !== "handoff_pending" && (
        <Notice tone="error" title={n.status === "interrupted" ? "The night was interrupted" : "The night failed"}>
          {n.error}
        </Notice>
      )}
      {n.notes.length > 0 && (
        <Notice title="Notes">
          <ul className="list-disc pl-4">
            {n.notes.map((x, i) => (
              <li key={i}>{x}</li>
            ))}
          </ul>
        </Notice>
      )}
      <NightActions night={n} />
      {n.proposalsError && <Notice tone="error">{n.proposalsError}</Notice>}
      {n.proposals.map((p) => (
        <ProposalCard key={p.label} p={p} />
      ))}
      {n.status === "staged" && n.proposals.length === 0 && !n.proposalsError && (
        <Notice>The gate kept the live files: this night staged only its report.</Notice>
      )}
      <Card title="Gate: per-task outcome" bodyClassName="">
        <GateTable rows={n.gates} />
      </Card>
      <Card title="Edits" bodyClassName="">
        <Edits title="Accepted" edits={n.edits} />
        <Edits title="Rejected by the gate" edits={n.rejectedEdits} />
        <Edits title="Unmatched (changed nothing)" edits={n.unmatchedEdits} />
        {n.edits.length + n.rejectedEdits.length + n.unmatchedEdits.length === 0 && (
          <p className="p-3 text-gray-500">No edits proposed.</p>
        )}
      </Card>
      {n.status === "discarded" && n.stagingDir && (
        <p className="text-xs text-gray-600" data-testid="discarded-note">
          Discarded: its staging folder <code>{n.stagingDir}</code> was removed (and the evidence log in it).
        </p>
      )}
      {!(n.status === "discarded" && n.stagingDir) && (n.stagingDir || n.evidencePath) && (
        <p className="text-xs text-gray-600">
          {n.stagingDir && (
            <>
              Staged in <code>{n.stagingDir}</code>.{" "}
            </>
          )}
          {n.evidencePath && (
            <>
              Evidence log: <code data-testid="evidence-path">{n.evidencePath}</code>
            </>
          )}
        </p>
      )}
    </div>
  );
}
