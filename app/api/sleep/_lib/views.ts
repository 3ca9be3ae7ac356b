/**
 * Database rows → the Sleep API's shapes (lib/contracts/sleep.ts). The night detail adds what only the
 * staging folder knows: each proposal beside its live file.
 */
import type {
  SleepEditView,
  SleepHandoffView,
  SleepNightDetail,
  SleepNightStatus,
  SleepNightSummary,
  SleepProjectView,
} from "@/lib/contracts/sleep";
import { listGateRows, type SleepNightRow } from "@/lib/db/sleep-nights";
import type { SleepProjectRow } from "@/lib/db/sleep-projects";
import { readNightProposals } from "@/lib/sleep/night-files";
import { nextCronRun } from "@/lib/sleep/schedule";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

type ProjectWithLast = SleepProjectRow & { nights?: Array<{ id: string; status: string; createdAt: Date }> };

export function projectView(p: ProjectWithLast, now = new Date()): SleepProjectView {
  const last = p.nights?.[0];
  return {
    id: p.id,
    name: p.name,
    directory: p.directory,
    transcriptSource: p.transcriptSource as SleepProjectView["transcriptSource"],
    transcriptHome: p.transcriptHome,
    targetSkillPath: p.targetSkillPath,
    tasksFile: p.tasksFile,
    backend: p.backend,
    model: p.model,
    lookbackHours: p.lookbackHours,
    cronPattern: p.cronPattern,
    enabled: p.enabled,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    nextRunAt: p.enabled ? nextCronRun(p.cronPattern, now) : null,
    lastNight: last
      ? { id: last.id, status: last.status as SleepNightStatus, createdAt: last.createdAt.toISOString() }
      : null,
  };
}

type NightRow = Omit<SleepNightRow, "project"> & { project: { name: string } | null };

export function nightSummary(n: NightRow): SleepNightSummary {
  return {
    id: n.id,
    projectId: n.projectId,
    projectName: n.project?.name ?? null,
    projectDir: n.projectDir,
    night: n.night,
    status: n.status as SleepNightStatus,
    trigger: n.trigger,
    dryRun: n.dryRun,
    backend: n.backend,
    nSessions: n.nSessions,
    nTasks: n.nTasks,
    nTrain: n.nTrain,
    nVal: n.nVal,
    nTest: n.nTest,
    baselineScore: n.baselineScore,
    candidateScore: n.candidateScore,
    accepted: n.accepted,
    gateAction: n.gateAction,
    editsAccepted: n.editsAccepted,
    editsRejected: n.editsRejected,
    editsUnmatched: n.editsUnmatched,
    tokensUsed: n.tokensUsed,
    error: n.error,
    createdAt: n.createdAt.toISOString(),
    startedAt: iso(n.startedAt),
    endedAt: iso(n.endedAt),
  };
}

function handoffOf(status: string, v: unknown): SleepHandoffView | null {
  if (status !== "handoff_pending" || typeof v !== "object" || v === null) return null;
  const h = v as Record<string, unknown>;
  return {
    dir: String(h.dir ?? ""),
    promptsPath: String(h.promptsPath ?? ""),
    answersDir: String(h.answersDir ?? ""),
    pending: Number(h.pending ?? 0),
  };
}

function edits(v: unknown): SleepEditView[] {
  if (!Array.isArray(v)) return [];
  return v.map((e: Record<string, unknown>) => ({
    target: String(e.target ?? ""),
    op: String(e.op ?? ""),
    content: String(e.content ?? ""),
    anchor: String(e.anchor ?? ""),
    rationale: String(e.rationale ?? ""),
  }));
}

export async function nightDetail(n: NightRow): Promise<SleepNightDetail> {
  const report = JSON.parse(n.reportJson) as Record<string, unknown>;
  let proposals: SleepNightDetail["proposals"] = [];
  let proposalsError = "";
  if (n.stagingDir && n.status !== "discarded") {
    try {
      proposals = readNightProposals(n.stagingDir).proposals.map(({ kind: _kind, ...p }) => p);
    } catch (err) {
      proposalsError = (err as Error).message;
    }
  }
  const gates = (await listGateRows(n.id)).map((g) => ({
    trial: g.trial,
    taskId: g.taskId,
    baselineScore: g.baselineScore,
    candidateScore: g.candidateScore,
    status: g.status,
  }));
  return {
    ...nightSummary(n),
    stagingDir: n.stagingDir,
    evidencePath: n.evidencePath,
    liveSkillPath: n.liveSkillPath,
    adoptedAt: iso(n.adoptedAt),
    notes: Array.isArray(report.notes) ? report.notes.map(String) : [],
    edits: edits(report.edits),
    rejectedEdits: edits(report.rejectedEdits),
    unmatchedEdits: edits(report.unmatchedEdits),
    gates,
    proposals,
    proposalsError,
    handoff: handoffOf(n.status, report.handoff),
  };
}
