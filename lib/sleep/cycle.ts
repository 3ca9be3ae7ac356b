/**
 * The nightly cycle (spec D.1): load state → pin the live documents → harvest and mine (or take given
 * tasks) → consolidate behind the gate (recall and dream included) → score the test split → per-skill
 * fan-out → stage → (optionally) auto-adopt the managed pair. A library function returning a typed
 * outcome: no process exit, no console; clock, environment, harvest and backend are injected.
 * Nothing live changes here except through an explicit `auto_adopt`; a dry run writes no staging and
 * saves no state.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildSleepBackend } from "./backend/build";
import { PendingCalls } from "./backend/types";
import { fanoutEnabled, isGateOff, managedSkillPathOf, memoryPathOf, stateDirOf, type SleepConfig } from "./config";
import { dreamConsolidate } from "./dream";
import { EvidenceLog, NoEvidence } from "./evidence";
import { consolidateGroups, groupReports, type GroupOutcome } from "./fanout";
import { ensureSkillScaffold } from "./learned";
import { harvestAndMine } from "./night-tasks";
import { readLiveBaseline, type LiveBaseline } from "./live";
import { PromptRegistry } from "./prompts";
import { record, splitSizesOf } from "./recorder";
import { aggregateScores, replayBatch } from "./replay";
import { skillSearchRoots } from "./skill-resolver";
import { stageNight } from "./stage-night";
import { localIso, SleepState } from "./state";
import { nightStamp, reserveStagingDir } from "./staging/root";
import { emptyReport, type ConsolidationResult, type SleepReport, type TaskRecord } from "./types";
import type { CycleContext as Ctx, CycleDeps, CycleOptions, CycleOutcome } from "./cycle-types";

export type { CycleDeps, CycleOptions, CycleOutcome } from "./cycle-types";

export function promptRegistryFor(cfg: SleepConfig, env: Readonly<Record<string, string | undefined>>): PromptRegistry {
  return new PromptRegistry(env.SKILLOPT_SLEEP_PROMPTS_PATH?.trim() || join(stateDirOf(cfg), "prompts.json"));
}

export function handoffDirFor(cfg: SleepConfig, env: Readonly<Record<string, string | undefined>>): string {
  return env.SKILLOPT_SLEEP_HANDOFF_DIR?.trim() || join(cfg.invoked_project, ".skillopt-sleep-handoff");
}

function openEvidence(
  ctx: Omit<Ctx, "evidence" | "evidencePath" | "stagingDir">,
  dryRun: boolean,
): Pick<Ctx, "evidence" | "evidencePath" | "stagingDir"> {
  const { cfg, deps } = ctx;
  if (!cfg.evidence_log)
    return {
      evidence: new NoEvidence(),
      evidencePath: "",
      stagingDir: dryRun ? "" : reserveStagingDir(cfg.invoked_project, deps.now()),
    };
  const stagingDir = dryRun ? "" : reserveStagingDir(cfg.invoked_project, deps.now());
  const evidencePath = dryRun
    ? join(stateDirOf(cfg), "evidence", `dryrun-${nightStamp(deps.now())}.jsonl`)
    : join(stagingDir, "evidence.jsonl");
  return {
    evidence: new EvidenceLog(evidencePath, {
      maxChars: cfg.evidence_max_chars,
      redact: cfg.redact_secrets,
      now: deps.now,
    }),
    evidencePath,
    stagingDir,
  };
}

const CONFIG_LOGGED = [
  "backend",
  "model",
  "optimizer_backend",
  "optimizer_model",
  "target_backend",
  "target_model",
  "gate_mode",
  "gate_metric",
  "gate_mixed_weight",
  "gate_no_regression",
  "edit_budget",
  "val_fraction",
  "test_fraction",
  "dream_rollouts",
  "dream_factor",
  "recall_k",
  "max_tasks_per_night",
  "lookback_hours",
  "llm_mine",
  "evolve_skill",
  "evolve_memory",
] as const;

export async function runSleepCycle(deps: CycleDeps, opts: CycleOptions = {}): Promise<CycleOutcome> {
  const cfg = deps.config;
  const prompts = deps.prompts ?? promptRegistryFor(cfg, deps.env);
  const backend =
    deps.backend ??
    buildSleepBackend(cfg, { env: deps.env, prompts, handoffDir: handoffDirFor(cfg, deps.env) }).backend;
  const state = SleepState.load(stateDirOf(cfg));
  const log = deps.log ?? (() => {});
  const warning = state.modelChangeWarning(backend.key());
  if (warning) log(`warning: ${warning}`);
  const night = state.beginNight();
  const base = {
    deps,
    cfg,
    backend,
    prompts,
    state,
    night,
    started: localIso(deps.now()),
    progress: (l: string) => cfg.progress && log(`[sleep] ${l}`),
  };
  // The live documents are read before anything is reserved: an unreadable one stops the night with nothing written.
  const live = {
    skill: readLiveBaseline(managedSkillPathOf(cfg), "skill"),
    memory: readLiveBaseline(memoryPathOf(cfg), "memory"),
  };
  const ctx: Ctx = { ...base, ...openEvidence(base, opts.dryRun === true) };
  backend.evidence = ctx.evidence;
  backend.preferences = cfg.preferences;
  ctx.evidence.log("cycle", "start", {
    night,
    project: cfg.invoked_project,
    backend: backend.name,
    model: backend.model,
    config: Object.fromEntries(CONFIG_LOGGED.map((k) => [k, cfg[k]])),
  });
  ctx.progress(`night ${night}: project=${cfg.invoked_project} backend=${backend.name}`);
  const dryRun = opts.dryRun === true;
  await record(deps.recorder, log, (r) =>
    r.started({ night, project: cfg.invoked_project, dryRun, backend: backend.name, startedAt: deps.now() }),
  );
  let outcome: CycleOutcome;
  try {
    outcome = await runNight(ctx, live, opts);
  } catch (err) {
    // A handoff round is not a failure: its reserved folder holds nothing worth keeping.
    const pending = err instanceof PendingCalls;
    if (pending && ctx.stagingDir && !existsSync(join(ctx.stagingDir, "manifest.json")))
      rmSync(ctx.stagingDir, { recursive: true, force: true });
    await record(deps.recorder, log, (r) =>
      r.failed({ message: err instanceof Error ? err.message : String(err), pending, endedAt: deps.now() }),
    );
    throw err;
  }
  const splits = ctx.splits ?? { train: 0, val: 0, test: 0 };
  await record(deps.recorder, log, (r) =>
    r.finished({ outcome, dryRun, splits, liveSkillPath: live.skill.path, endedAt: deps.now() }),
  );
  return outcome;
}

async function runNight(
  ctx: Ctx,
  live: { skill: LiveBaseline; memory: LiveBaseline },
  opts: CycleOptions,
): Promise<CycleOutcome> {
  const { cfg, deps, backend, state } = ctx;
  const skill =
    live.skill.text ||
    ensureSkillScaffold(
      "",
      cfg.managed_skill_name,
      "Preferences and procedures learned from past local agent sessions.",
    );
  const filterOn = cfg.target_task_filter && cfg.target_skill_path !== "" && live.skill.text !== "";
  const report = emptyReport(ctx.night, cfg.invoked_project, ctx.started);
  report.gateNoRegression = cfg.gate_no_regression;
  let tasks = opts.seedTasks;
  if (!tasks) {
    const ntDeps = {
      config: cfg,
      harvest: deps.harvest,
      backend,
      prompts: ctx.prompts,
      env: deps.env,
      now: deps.now,
      platform: deps.platform ?? "linux",
      evidence: ctx.evidence,
    };
    const mined = await harvestAndMine(
      ntDeps,
      state.data.lastHarvest,
      filterOn ? { skillText: live.skill.text, skillPath: live.skill.path } : null,
      opts.digests,
    );
    tasks = mined.tasks;
    report.nSessions = mined.digests.length;
    report.notes.push(...mined.notes);
  }
  for (const t of tasks) {
    ctx.evidence.log("mine", "task_ready", {
      taskId: t.id,
      split: t.split,
      origin: t.origin,
      intent: t.intent.slice(0, 300),
      referenceKind: t.referenceKind,
      checks: t.judge.checks ?? [],
      rubric: t.referenceKind === "rubric" ? t.reference : "",
      sourceSessions: t.sourceSessions,
    });
  }
  report.nTasks = tasks.length;
  ctx.splits = splitSizesOf(tasks);
  if (tasks.length === 0) return finishEmpty(ctx, report, opts.dryRun === true);
  const history = cfg.recall_k > 0 ? state.taskArchive() : [];
  const cdeps = { backend, now: deps.now, prompts: ctx.prompts };
  const options = {
    editBudget: cfg.edit_budget,
    gateMetric: cfg.gate_metric,
    gateMixedWeight: cfg.gate_mixed_weight,
    gateNoRegression: cfg.gate_no_regression,
    gateOff: isGateOff(cfg.gate_mode),
    rolloutsK: cfg.dream_rollouts,
    evolveSkill: cfg.evolve_skill,
    night: ctx.night,
    recallK: cfg.recall_k,
    dreamFactor: cfg.dream_factor,
    workers: replayWorkers(deps.env),
  };
  ctx.progress("consolidate start");
  const result = await dreamConsolidate(cdeps, tasks, skill, live.memory.text, {
    ...options,
    history,
    evolveMemory: cfg.evolve_memory,
  });
  state.addToArchive(tasks.filter((t) => t.origin !== "dream"));
  fillReport(report, result, tasks.length);
  ctx.progress(
    `consolidate done: gate=${result.gateAction} accepted=${result.accepted} edits=${result.appliedEdits.length} rejected=${result.rejectedEdits.length}`,
  );
  await scoreTest(ctx, tasks, result, skill, live.memory.text);
  let groups: GroupOutcome[] = [];
  if (fanoutEnabled(cfg)) {
    const fan = await consolidateGroups(cdeps, {
      tasks,
      managedName: cfg.managed_skill_name,
      managedSkill: skill,
      memory: live.memory.text,
      roots: skillSearchRoots(cfg),
      history,
      options,
    });
    groups = fan.outcomes;
    report.notes.push(...fan.notes);
    report.skillGroups = groupReports(groups);
  }
  if (backend.pendingCount() > 0) throw new PendingCalls(backend.pendingCount());
  report.tokensUsed = backend.tokensUsed();
  report.endedAt = localIso(deps.now());
  if (opts.dryRun) {
    ctx.evidence.log("cycle", "end", {
      night: ctx.night,
      outcome: "dry_run",
      gateAction: report.gateAction,
      accepted: report.accepted,
      tokensUsed: report.tokensUsed,
    });
    return {
      report,
      stagingDir: "",
      adopted: false,
      adoptedPaths: [],
      evidencePath: ctx.evidencePath,
      stagedSkills: [],
    };
  }
  return stageNight(ctx, { report, result, live, groups, taskCount: tasks.length, startSkill: skill });
}

/** Concurrent replays (`SKILLOPT_SLEEP_WORKERS`, default 1: in order); results keep task order either way. */
export function replayWorkers(env: Readonly<Record<string, string | undefined>>): number {
  const n = Number.parseInt(env.SKILLOPT_SLEEP_WORKERS ?? "", 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 64) : 1;
}

function fillReport(report: SleepReport, r: ConsolidationResult, n: number): void {
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
async function scoreTest(
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

function finishEmpty(ctx: Ctx, report: SleepReport, dryRun: boolean): CycleOutcome {
  report.endedAt = localIso(ctx.deps.now());
  report.notes.push("no tasks mined — nothing to consolidate");
  ctx.state.setLastHarvest(ctx.cfg.invoked_project, ctx.started);
  ctx.state.recordNight({ night: ctx.night, accepted: false, nTasks: 0 });
  if (!dryRun) ctx.state.save();
  ctx.evidence.log("cycle", "end", { night: ctx.night, outcome: "no_tasks", tokensUsed: ctx.backend.tokensUsed() });
  return { report, stagingDir: "", adopted: false, adoptedPaths: [], evidencePath: ctx.evidencePath, stagedSkills: [] };
}
