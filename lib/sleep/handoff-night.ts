/**
 * Driving a night on the handoff backend (spec D.11). Each run goes as far as answered prompts allow; when
 * calls are missing it writes PROMPTS.md + pending.json and reports `pending` (the CLI exits 3). The
 * harvested digests and the mined tasks are pinned in the handoff folder (`digests.json`, `tasks.json`,
 * the latter not marked reviewed) on the first rounds, so sessions that happen while someone answers the
 * prompts cannot change the task set and invalidate earlier answers. A completed, staged night renames
 * the folder to `<dir>.night<N>.done`, so the next night starts afresh.
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

export async function runHandoffNight(
  deps: Omit<CycleDeps, "backend">,
  opts: { seedTasks?: TaskRecord[]; dryRun?: boolean } = {},
): Promise<HandoffOutcome> {
  const cfg = { ...deps.config, backend: "handoff", optimizer_backend: "", target_backend: "" };
  const prompts = deps.prompts ?? promptRegistryFor(cfg, deps.env);
  const dir = handoffDirFor(cfg, deps.env);
  const { backend, handoff } = buildSleepBackend(cfg, { env: deps.env, prompts, handoffDir: dir });
  const pending = (): HandoffOutcome => ({
    kind: "pending",
    pending: handoff!.pendingCount(),
    promptsPath: handoff!.flush(),
    answersDir: handoff!.answersDir,
  });
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
  try {
    outcome = await runSleepCycle(
      { ...deps, config: cfg, prompts, backend },
      { seedTasks: tasks, dryRun: opts.dryRun },
    );
  } catch (err) {
    if (err instanceof PendingCalls) return pending();
    throw err;
  }
  let archivedTo = "";
  if (!opts.dryRun && outcome.stagingDir && existsSync(dir)) {
    archivedTo = `${dir}.night${outcome.report.night}.done`;
    if (existsSync(archivedTo)) archivedTo = `${archivedTo}.${deps.now()}`;
    renameSync(dir, archivedTo);
  }
  return { kind: "done", outcome, archivedTo };
}
