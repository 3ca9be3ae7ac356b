/**
 * The end of a night that is not a dry run (spec D.1 step 10): the managed proposals (only when the gate
 * accepted, that document evolves and the night changed it), per-skill proposals, report and diagnostics staged; the harvest
 * checkpoint advanced; the night recorded; the model key stored; and, only with `auto_adopt` on an
 * accepted night, the managed pair adopted (never per-skill rows) after the state is saved.
 */
import { redactDeep } from "../contracts/redact";
import { isGateOff } from "./config";
import type { CycleContext, CycleOutcome } from "./cycle-types";
import { skillProposals, type GroupOutcome } from "./fanout";
import type { LiveBaseline } from "./live";
import { skillSearchRoots } from "./skill-resolver";
import { adoptManaged } from "./staging/adopt";
import { renderReportMd } from "./staging/report-md";
import { writeStaging, type ManagedProposal } from "./staging/write";
import { reserveStagingDir, StagingError } from "./staging/root";
import type { ConsolidationResult, SleepReport } from "./types";

interface StageInput {
  report: SleepReport;
  result: ConsolidationResult;
  live: { skill: LiveBaseline; memory: LiveBaseline };
  groups: GroupOutcome[];
  taskCount: number;
  /** The skill the night started from (the live text, or the scaffold when there was none). */
  startSkill: string;
}

const managed = (proposed: string, l: LiveBaseline): ManagedProposal => ({
  proposed,
  livePath: l.path,
  liveRealpath: l.realpath,
  liveSha256: l.sha256,
});

export function stageNight(ctx: CycleContext, s: StageInput): CycleOutcome {
  const { cfg, state, backend } = ctx;
  const { report, result, live } = s;
  // A managed document is staged only when the accepted night changed it: adopting an unchanged memory
  // would otherwise create an empty CLAUDE.md in a project that had none.
  const skill =
    cfg.evolve_skill && result.accepted && result.newSkill !== s.startSkill
      ? managed(result.newSkill, live.skill)
      : null;
  const memory =
    cfg.evolve_memory && result.accepted && result.newMemory !== live.memory.text
      ? managed(result.newMemory, live.memory)
      : null;
  const fan = skillProposals(s.groups, cfg.managed_skill_name, skill ? [live.skill.realpath] : []);
  report.notes.push(...fan.notes);
  const safeReport = redactDeep(report);
  const diagnostics = redactDeep({
    night: ctx.night,
    backend: backend.name,
    gateMode: cfg.gate_mode,
    gateNoRegression: cfg.gate_no_regression,
    nTasks: s.taskCount,
    baselineScore: result.baselineScore,
    candidateScore: result.candidateScore,
    accepted: result.accepted,
    gateAction: result.gateAction,
    holdoutLeaked: result.holdoutLeaked,
    nAppliedEdits: result.appliedEdits.length,
    nRejectedEdits: result.rejectedEdits.length,
    nUnmatchedEdits: result.unmatchedEdits.length,
    callError: result.callError,
    reflectRawHead: result.reflectRaw.slice(0, 1200),
    holdoutDetail: result.holdoutDetail,
    gateTrials: result.gateTrials,
  });
  const dir = writeStaging({
    dir: ctx.stagingDir || reserveStagingDir(cfg.invoked_project, ctx.deps.now()),
    report: safeReport,
    reportMd: renderReportMd(safeReport, {
      backend: backend.name,
      replayMode: cfg.replay_mode,
      gateOff: isGateOff(cfg.gate_mode),
    }),
    diagnostics,
    liveSkillPath: live.skill.path,
    liveMemoryPath: live.memory.path,
    skill,
    memory,
    skillProposals: fan.proposals,
    skillRoots: fan.proposals.length > 0 ? skillSearchRoots(cfg) : [],
  });
  ctx.evidence.log("stage", "staged", {
    stagingDir: dir,
    hasSkill: skill !== null,
    hasMemory: memory !== null,
    accepted: result.accepted,
    stagedSkills: fan.proposals.map((p) => p.skillName),
  });
  state.setLastHarvest(cfg.invoked_project, ctx.started);
  state.recordNight({
    night: ctx.night,
    accepted: result.accepted,
    baseline: result.baselineScore,
    candidate: result.candidateScore,
    nTasks: s.taskCount,
    staging: dir,
  });
  state.setLastModelKey(backend.key());
  state.save();
  let adoptedPaths: string[] = [];
  if (cfg.auto_adopt && result.accepted) {
    // The night is staged and recorded either way; a refused auto-adopt leaves it for a manual adopt.
    try {
      adoptedPaths = adoptManaged(dir);
    } catch (err) {
      if (!(err instanceof StagingError)) throw err;
      safeReport.notes.push(`auto-adopt refused: ${err.message}`);
      ctx.evidence.log("stage", "auto_adopt_refused", { error: err.message });
    }
  }
  ctx.evidence.log("cycle", "end", {
    night: ctx.night,
    outcome: "completed",
    gateAction: report.gateAction,
    accepted: report.accepted,
    baselineScore: report.baselineScore,
    candidateScore: report.candidateScore,
    nAppliedEdits: report.edits.length,
    nRejectedEdits: report.rejectedEdits.length,
    nUnmatchedEdits: report.unmatchedEdits.length,
    tokensUsed: report.tokensUsed,
    adopted: adoptedPaths.length > 0,
  });
  return {
    report: safeReport,
    stagingDir: dir,
    adopted: adoptedPaths.length > 0,
    adoptedPaths,
    evidencePath: ctx.evidencePath,
    stagedSkills: fan.proposals.map((p) => p.skillName),
  };
}
