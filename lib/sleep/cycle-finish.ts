/**
 * The cycle's bookkeeping around consolidation: how many replays run at once, the report filled from the
 * consolidation result, the test split scored for the record (never gating), and the end of a night that
 * mined no tasks (checkpoint advanced, history recorded, state saved unless dry run).
 */
import type { CycleContext as Ctx, CycleOutcome } from "./cycle-types";
import { aggregateScores, replayBatch } from "./replay";
import { localIso } from "./state";
import type { ConsolidationResult, SleepReport, TaskRecord } from "./types";

/** Concurrent replays (`SKILLOPT_SLEEP_WORKERS`, default 1: in order); results keep task order either way. */
export function replayWorkers(env: Readonly<Record<string, string | undefined>>): number {
  const n = Number.parseInt(env.SKILLOPT_SLEEP_WORKERS ?? "", 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 64) : 1;
}

export function fillReport(report: SleepReport, r: ConsolidationResult, n: number): void {
  report.nReplayed = n;
  report.baselineScore = r.baselineScore;
  report.candidateScore = r.candidateScore;
  report.accepted = r.accepted;
  report.gateAction = r.gateAction;
  report.holdoutLeaked = r.holdoutLeaked;
  report.edits = r.appliedEdits;
  report.rejectedEdits = r.rejectedEdits;
  report.unmatchedEdits = r.unmatchedEdits;
  report.gateTrials = r.gateTrials;
  const proposed = r.appliedEdits.length + r.rejectedEdits.length + r.unmatchedEdits.length;
  if (proposed === 0)
    report.noEditsReason = r.callError ? `model call failed: ${r.callError}` : "the optimizer proposed no edits";
}

/** The test split is scored on the night's final documents, for the record only: the gate never reads it. */
export async function scoreTest(
  ctx: Ctx,
  tasks: readonly TaskRecord[],
  r: ConsolidationResult,
  skill: string,
  memory: string,
): Promise<void> {
  const test = tasks.filter((t) => t.split === "test");
  if (test.length === 0 || !ctx.cfg.evidence_log) return;
  ctx.evidence.phase = "test";
  const pairs = await replayBatch(
    { backend: ctx.backend, now: ctx.deps.now },
    test,
    r.accepted ? r.newSkill : skill,
    r.accepted ? r.newMemory : memory,
  );
  const { hard, soft } = aggregateScores(pairs);
  ctx.evidence.log("test", "held_out_score", {
    night: ctx.night,
    nTest: test.length,
    hard,
    soft,
    accepted: r.accepted,
    gateAction: r.gateAction,
  });
}

export function finishEmpty(ctx: Ctx, report: SleepReport, dryRun: boolean): CycleOutcome {
  report.endedAt = localIso(ctx.deps.now());
  report.notes.push("no tasks mined — nothing to consolidate");
  ctx.state.setLastHarvest(ctx.cfg.invoked_project, ctx.started);
  ctx.state.recordNight({ night: ctx.night, accepted: false, nTasks: 0 });
  if (!dryRun) ctx.state.save();
  ctx.evidence.log("cycle", "end", { night: ctx.night, outcome: "no_tasks", tokensUsed: ctx.backend.tokensUsed() });
  return { report, stagingDir: "", adopted: false, adoptedPaths: [], evidencePath: ctx.evidencePath, stagedSkills: [] };
}
