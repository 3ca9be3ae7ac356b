/**
 * `sleep run` / `sleep dry-run`: exit 0 ok, 1 backend failure or staging refused, 2 an unreviewed tasks
 * file with a real backend (or any bad input), 3 handoff prompts waiting for answers.
 */
import { AppError } from "../../lib/errors";
import { harvestSessions } from "../../lib/sleep/harvest";
import {
  loadTasksFile,
  resolveSleepBackend,
  runHandoffNight,
  runSleepCycle,
  SleepBackendError,
  snakeKeys,
  StagingError,
  type CycleOutcome,
  type NightRecorder,
  type SleepConfig,
} from "../../lib/sleep";
import { configOf, printJson, say, type Flags } from "./sleep-args";
import { openCliDb } from "./sleep-db";

function isRealBackend(cfg: SleepConfig): boolean {
  return [cfg.backend, cfg.optimizer_backend, cfg.target_backend]
    .filter((b) => b.trim() !== "")
    .some((b) => resolveSleepBackend(b, "backend") !== "mock");
}

function failure(f: Flags, kind: string, message: string, code: number): number {
  if (f.json) printJson({ ok: false, error: kind, message: say(message) });
  else process.stderr.write(`[sleep] ${kind.replace(/_/g, " ")}: ${say(message)}\n`);
  return code;
}

export function runPayload(
  o: CycleOutcome,
  tasksMeta?: { tasksFile: string; reviewed: boolean },
): Record<string, unknown> {
  const r = o.report;
  return {
    night: r.night,
    accepted: r.accepted,
    gate_action: r.gateAction,
    no_edits_reason: r.noEditsReason,
    baseline: r.baselineScore,
    candidate: r.candidateScore,
    n_tasks: r.nTasks,
    n_sessions: r.nSessions,
    n_accepted_edits: r.edits.length,
    n_rejected_edits: r.rejectedEdits.length,
    edits: snakeKeys(r.edits),
    rejected_edits: snakeKeys(r.rejectedEdits),
    gate_no_regression: r.gateNoRegression,
    gate_trials: snakeKeys(r.gateTrials),
    skill_groups: snakeKeys(r.skillGroups),
    notes: r.notes,
    staging_dir: o.stagingDir,
    staged_skills: o.stagedSkills,
    adopted: o.adopted,
    ...(tasksMeta ? { tasks_file: tasksMeta.tasksFile, tasks_reviewed: tasksMeta.reviewed } : {}),
  };
}

function printReport(o: CycleOutcome): void {
  const r = o.report;
  const out: string[] = [`[sleep] night ${r.night}: ${r.nSessions} sessions -> ${r.nTasks} tasks`];
  out.push(
    `[sleep] held-out ${r.baselineScore.toFixed(3)} -> ${r.candidateScore.toFixed(3)} => ${say(r.gateAction || "-")} (accepted=${r.accepted})`,
  );
  for (const e of r.edits) out.push(`   + [${say(e.target)}/${say(e.op)}] ${say(e.content)}`);
  if (r.rejectedEdits.length > 0)
    out.push(
      "[sleep] rejected by the gate:",
      ...r.rejectedEdits.map((e) => `   - [${say(e.target)}/${say(e.op)}] ${say(e.content)}`),
    );
  for (const n of r.notes) out.push(`[sleep] note: ${say(n)}`);
  if (o.stagingDir) {
    out.push(`[sleep] staged: ${say(o.stagingDir)}`);
    if (o.stagedSkills.length > 0) {
      out.push("[sleep] staged per-skill proposals:", ...o.stagedSkills.map((s) => `   - ${say(s)}`));
      out.push(
        "        npm run skillopt -- sleep adopt --skill NAME   (repeatable)",
        "        npm run skillopt -- sleep adopt --all-skills",
      );
    } else if (!o.adopted) out.push("[sleep] review it, then: npm run skillopt -- sleep adopt");
  }
  if (o.adopted) out.push(`[sleep] auto-adopted: ${o.adoptedPaths.map(say).join(", ")}`);
  if (o.evidencePath) out.push(`[sleep] evidence: ${say(o.evidencePath)}`);
  process.stdout.write(`${out.join("\n")}\n`);
}

export async function runSleepRun(f: Flags, dryRun: boolean): Promise<number> {
  const tasksFile = typeof f["tasks-file"] === "string" ? f["tasks-file"] : undefined;
  let cfg = configOf(f);
  let loaded;
  if (tasksFile) {
    loaded = loadTasksFile(tasksFile, { valFraction: cfg.val_fraction, seed: cfg.seed });
    // A reviewed tasks file may name the skill it was mined for; an explicit flag still wins.
    if (loaded.meta.targetSkillPath && f["target-skill-path"] === undefined)
      cfg = configOf(f, { target_skill_path: loaded.meta.targetSkillPath });
    for (const w of loaded.warnings) process.stderr.write(`[sleep] warning: ${say(w)}\n`);
    if (isRealBackend(cfg) && !loaded.meta.reviewed) {
      return failure(
        f,
        "unreviewed_tasks_file",
        `refusing to replay ${loaded.meta.tasksFile} with a real backend: inspect and redact it, then set "reviewed": true`,
        2,
      );
    }
  }
  const store = await openCliDb(f);
  try {
    return await runNightWith(f, { cfg, loaded, dryRun, recorder: store.recorder });
  } finally {
    await store.close();
  }
}

async function runNightWith(
  f: Flags,
  o: { cfg: SleepConfig; loaded?: ReturnType<typeof loadTasksFile>; dryRun: boolean; recorder?: NightRecorder },
): Promise<number> {
  const { cfg, loaded, dryRun } = o;
  const deps = {
    config: cfg,
    now: () => Date.now(),
    env: process.env,
    harvest: harvestSessions,
    platform: process.platform,
    log: (l: string) => process.stderr.write(`${say(l)}\n`),
    recorder: o.recorder,
  };
  const meta = loaded ? { tasksFile: loaded.meta.tasksFile, reviewed: loaded.meta.reviewed } : undefined;
  try {
    if (resolveSleepBackend(cfg.backend, "backend") === "handoff") {
      const h = await runHandoffNight(deps, { seedTasks: loaded?.tasks, dryRun });
      if (h.kind === "pending") {
        if (f.json) printJson({ handoff_pending: h.pending, prompts: h.promptsPath, answers_dir: h.answersDir });
        else
          process.stdout.write(
            `[sleep] handoff: ${h.pending} model call(s) need answers\n[sleep] prompts: ${say(h.promptsPath)}\n[sleep] write each raw answer to ${say(h.answersDir)}/<id>.md, then run this exact command again\n`,
          );
        return 3;
      }
      if (h.kind === "no_tasks") {
        if (f.json) printJson({ night: null, n_tasks: 0, notes: ["no tasks mined — nothing to consolidate"] });
        else process.stdout.write("[sleep] handoff: no tasks mined — nothing to consolidate\n");
        return 0;
      }
      if (h.archivedTo) process.stderr.write(`[sleep] handoff: round files archived to ${say(h.archivedTo)}\n`);
      if (f.json) printJson(runPayload(h.outcome, meta));
      else printReport(h.outcome);
      return 0;
    }
    const outcome = await runSleepCycle(deps, { seedTasks: loaded?.tasks, dryRun });
    if (f.json) printJson(runPayload(outcome, meta));
    else printReport(outcome);
    return 0;
  } catch (err) {
    if (err instanceof SleepBackendError) return failure(f, "backend_failed", err.message, 1);
    if (err instanceof StagingError) return failure(f, "staging_refused", err.message, 1);
    if (err instanceof AppError && f.json) return failure(f, "invalid_request", err.message, 2);
    throw err;
  }
}
