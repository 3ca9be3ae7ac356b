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
import { fanoutEnabled, isGateOff, managedSkillPathOf, memoryPathOf, stateDirOf } from "./config";
import { fillReport, finishEmpty, replayWorkers, scoreTest } from "./cycle-finish";
import { CONFIG_LOGGED, handoffDirFor, openEvidence, promptRegistryFor } from "./cycle-setup";
import { dreamConsolidate } from "./dream";
import { consolidateGroups, groupReports, type GroupOutcome } from "./fanout";
import { ensureSkillScaffold } from "./learned";
import { harvestAndMine } from "./night-tasks";
import { readLiveBaseline, type LiveBaseline } from "./live";
import { record, splitSizesOf } from "./recorder";
import { skillSearchRoots } from "./skill-resolver";
import { stageNight } from "./stage-night";
import { localIso, SleepState } from "./state";
import { emptyReport } from "./types";
import type { CycleContext as Ctx, CycleDeps, CycleOptions, CycleOutcome } from "./cycle-types";

export type { CycleDeps, CycleOptions, CycleOutcome } from "./cycle-types";
export { handoffDirFor, promptRegistryFor } from "./cycle-setup";
export { replayWorkers } from "./cycle-finish";

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
