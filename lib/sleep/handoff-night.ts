/**
 * Driving a night on the handoff backend (spec D.11). Each run goes as far as answered prompts allow; when
 * calls are missing it writes PROMPTS.md + pending.json and reports `pending` (the CLI exits 3). The
 * harvested digests and the mined tasks are pinned in the handoff folder (`digests.json`, `tasks.json`,
 * the latter not marked reviewed) on the first rounds, so sessions that happen while someone answers the
 * prompts cannot change the task set and invalidate earlier answers. A completed, staged night renames
 * the folder to `<dir>.night<N>.done`, so the next night starts afresh.
 * A round that stops for answers is recorded as a night waiting for them, in the state folder
 * (`handoff_waiting`, not for a dry run) and through the recorder (status handoff_pending, with the
 * folder), whether it stopped while mining or inside the cycle; the next rounds continue that same record.
 */
import { existsSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { redactDeep } from "../contracts/redact";
import { AppError } from "../errors";
import { buildSleepBackend } from "./backend/build";
import { PendingCalls } from "./backend/types";
import { managedSkillPathOf, stateDirOf } from "./config";
import { handoffDirFor, promptRegistryFor, runSleepCycle, type CycleDeps, type CycleOutcome } from "./cycle";
import { NoEvidence } from "./evidence";
import { record, type HandoffRound, type NightRecorder } from "./recorder";
import { writeFileAtomic } from "./fs-safe";
import { camelKeys, snakeKeys } from "./keys";
import { harvestAndMine, harvestOptionsOf } from "./night-tasks";
import { SessionDigestSchema, type SessionDigest } from "./session-digest";
import { localIso, SleepState } from "./state";
import { loadTasksFile, makeTasksPayload, writeTasksFile } from "./tasks-file";
import type { TaskRecord } from "./types";

export type HandoffOutcome =
  | { kind: "pending"; pending: number; promptsPath: string; answersDir: string }
  | { kind: "no_tasks"; handoffDir: string }
  | { kind: "done"; outcome: CycleOutcome; archivedTo: string };

function readPinnedDigests(path: string): SessionDigest[] | null {
  if (!existsSync(path)) return null;
  const parsed = z.array(SessionDigestSchema).safeParse(camelKeys(JSON.parse(readFileSync(path, "utf8"))));
  if (!parsed.success)
    throw new AppError(
      "INVALID_REQUEST",
      `${path}: not a list of session digests (${parsed.error.issues[0]!.message}); delete it to harvest again`,
      { field: path },
    );
  return parsed.data;
}

/** The cycle's recorder minus its handoff-pending failure: the driver records that once the prompts are written. */
function cycleRecorder(outer: NightRecorder | undefined): NightRecorder | undefined {
  if (!outer) return undefined;
  return {
    started: (s) => outer.started(s),
    finished: (f) => outer.finished(f),
    failed: (f) => (f.pending ? Promise.resolve() : outer.failed(f)),
  };
}

export async function runHandoffNight(
  deps: Omit<CycleDeps, "backend">,
  opts: { seedTasks?: TaskRecord[]; dryRun?: boolean } = {},
): Promise<HandoffOutcome> {
  const cfg = { ...deps.config, backend: "handoff", optimizer_backend: "", target_backend: "" };
  const prompts = deps.prompts ?? promptRegistryFor(cfg, deps.env);
  const dir = handoffDirFor(cfg, deps.env);
  const { backend, handoff } = buildSleepBackend(cfg, { env: deps.env, prompts, handoffDir: dir });
  const log = deps.log ?? (() => {});
  const dryRun = opts.dryRun === true;
  let cycleStarted = false;
  const pending = async (): Promise<HandoffOutcome> => {
    const round: HandoffRound = {
      dir,
      pending: handoff!.pendingCount(),
      promptsPath: handoff!.flush(),
      answersDir: handoff!.answersDir,
    };
    const state = SleepState.load(stateDirOf(cfg));
    const night = state.night + 1; // the number the cycle gives this night once it completes
    if (!cycleStarted)
      await record(deps.recorder, log, (r) =>
        r.started({ night, project: cfg.invoked_project, dryRun, backend: backend.name, startedAt: deps.now() }),
      );
    const message = `waiting for answers to ${round.pending} handoff prompt(s) in ${round.promptsPath}`;
    await record(deps.recorder, log, (r) => r.failed({ message, pending: true, handoff: round, endedAt: deps.now() }));
    if (!dryRun) {
      state.setHandoffWaiting(cfg.invoked_project, {
        project: cfg.invoked_project,
        night,
        handoffDir: dir,
        promptsPath: round.promptsPath,
        answersDir: round.answersDir,
        pending: round.pending,
        since: localIso(deps.now()),
      });
      state.save();
    }
    return { kind: "pending", pending: round.pending, promptsPath: round.promptsPath, answersDir: round.answersDir };
  };
  const clearWaiting = () => {
    if (dryRun) return;
    const state = SleepState.load(stateDirOf(cfg));
    if (!state.handoffWaitingFor(cfg.invoked_project)) return;
    state.setHandoffWaiting(cfg.invoked_project, null);
    state.save();
  };
  let tasks = opts.seedTasks;
  const snapshot = join(dir, "tasks.json");
  if (!tasks && existsSync(snapshot))
    tasks = loadTasksFile(snapshot, { valFraction: cfg.val_fraction, seed: cfg.seed }).tasks;
  if (!tasks) {
    const state = SleepState.load(stateDirOf(cfg));
    const started = localIso(deps.now());
    const digestsPath = join(dir, "digests.json");
    let digests = readPinnedDigests(digestsPath);
    const ntDeps = {
      config: cfg,
      harvest: deps.harvest,
      backend,
      prompts,
      env: deps.env,
      now: deps.now,
      platform: deps.platform ?? "linux",
      evidence: new NoEvidence(),
    };
    if (!digests) {
      digests = (await deps.harvest(harvestOptionsOf(ntDeps, state.data.lastHarvest))).digests;
      writeFileAtomic(digestsPath, `${JSON.stringify(snakeKeys(redactDeep(digests)), null, 2)}\n`);
    }
    const target =
      cfg.target_task_filter && cfg.target_skill_path && existsSync(managedSkillPathOf(cfg))
        ? { skillText: readFileSync(managedSkillPathOf(cfg), "utf8"), skillPath: managedSkillPathOf(cfg) }
        : null;
    let mined: TaskRecord[] = [];
    try {
      mined = (await harvestAndMine(ntDeps, state.data.lastHarvest, target, digests)).tasks;
    } catch (err) {
      if (!(err instanceof PendingCalls)) throw err;
    }
    if (handoff!.pendingCount() > 0) return pending();
    if (mined.length === 0) {
      if (!opts.dryRun) {
        state.setLastHarvest(cfg.invoked_project, started);
        state.setHandoffWaiting(cfg.invoked_project, null);
        state.save();
      }
      return { kind: "no_tasks", handoffDir: dir };
    }
    writeTasksFile(
      snapshot,
      makeTasksPayload(mined, {
        project: cfg.invoked_project,
        transcriptSource: cfg.transcript_source,
        nSessions: digests.length,
        targetSkillPath: target?.skillPath ?? "",
      }),
    );
    tasks = mined;
  }
  let outcome: CycleOutcome;
  cycleStarted = true;
  try {
    outcome = await runSleepCycle(
      { ...deps, config: cfg, prompts, backend, recorder: cycleRecorder(deps.recorder) },
      { seedTasks: tasks, dryRun: opts.dryRun },
    );
  } catch (err) {
    if (err instanceof PendingCalls) return pending();
    throw err;
  }
  clearWaiting();
  let archivedTo = "";
  if (!opts.dryRun && outcome.stagingDir && existsSync(dir)) {
    archivedTo = `${dir}.night${outcome.report.night}.done`;
    if (existsSync(archivedTo)) archivedTo = `${archivedTo}.${deps.now()}`;
    renameSync(dir, archivedTo);
  }
  return { kind: "done", outcome, archivedTo };
}
