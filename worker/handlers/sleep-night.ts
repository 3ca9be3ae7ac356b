/**
 * Runs one Sleep night for a queue job: claim the queued night row (a duplicate job is a no-op), build
 * the night's configuration from its project, and drive the cycle with the database recorder, so the row
 * moves queued → running → staged / dry_run / no_tasks / adopted (auto-adopt) / failed. A failure marks
 * the row failed with a redacted reason and is not retried (a night is re-run by a person or the
 * schedule's next firing, never twice by accident).
 */
import { UnrecoverableError } from "bullmq";
import {
  createNightRecorder,
  claimNight,
  createQueuedNight,
  findNight,
  markNightFailed,
} from "../../lib/db/sleep-nights";
import { findSleepProject } from "../../lib/db/sleep-projects";
import { errorLine } from "../../lib/contracts/error-line";
import { runSleepCycle } from "../../lib/sleep";
import { harvestSessions } from "../../lib/sleep/harvest";
import type { Logger } from "../logger";
import { projectConfig, projectTasks } from "./sleep-config";

export interface SleepHandlerContext {
  log: Logger;
  /**
   * Called with a scheduled firing's new night before it is claimed: the processor writes the id into the
   * job's data, so a worker that dies mid-night leaves a stalled job that names its night (see onSleepJobFailed).
   */
  onNightCreated?: (nightId: string) => Promise<void>;
  /** The user's home folder (their `~/.skillopt-sleep/config.*` applies); default: os.homedir(). */
  home?: string;
}

/**
 * A Sleep job failed. The handler marks the nights it ran itself; this catches a night whose worker died
 * mid-way: BullMQ fails its stalled job (maxStalledCount 0) on the next worker, which marks the night failed.
 * A scheduled firing's job names its night once the night exists (`onNightCreated`).
 */
export async function onSleepJobFailed(data: unknown, err: Error, log: Logger): Promise<void> {
  log.warn(`sleep job failed: ${errorLine(err)}`);
  const nightId = (data as { nightId?: unknown } | null | undefined)?.nightId;
  if (typeof nightId !== "string") return;
  await markNightFailed(nightId, `the worker stopped while this night ran: ${errorLine(err)}`).catch((e: unknown) =>
    log.warn(`sleep: marking night ${nightId} failed: ${errorLine(e)}`),
  );
}

/** A project's job scheduler fired: a night row is created and run. */
export async function handleScheduledNight(projectId: string, ctx: SleepHandlerContext): Promise<string> {
  const project = await findSleepProject(projectId);
  if (!project) {
    ctx.log.warn(`scheduled night for unknown Sleep project ${projectId}: skipped`);
    return "missing";
  }
  if (!project.enabled) return "disabled";
  const night = await createQueuedNight({
    projectId,
    projectDir: project.directory,
    trigger: "schedule",
    dryRun: false,
  });
  await ctx.onNightCreated?.(night.id);
  return handleSleepNight(night.id, ctx);
}

export async function handleSleepNight(nightId: string, ctx: SleepHandlerContext): Promise<string> {
  const night = await findNight(nightId);
  if (!night) {
    ctx.log.warn(`job for unknown Sleep night ${nightId}: skipped`);
    return "missing";
  }
  if (!(await claimNight(nightId))) return "not-claimed";
  const project = night.projectId ? await findSleepProject(night.projectId) : null;
  try {
    if (!project) throw new UnrecoverableError("the night's project was deleted");
    const config = projectConfig(project, ctx.home);
    const seedTasks = projectTasks(project, config, (w) => ctx.log.warn(`[sleep ${nightId}] ${w}`));
    const recorder = createNightRecorder({ nightId, trigger: night.trigger === "schedule" ? "schedule" : "manual" });
    const out = await runSleepCycle(
      {
        config,
        now: () => Date.now(),
        env: process.env,
        harvest: harvestSessions,
        platform: process.platform,
        recorder,
        log: (l) => ctx.log.info(`[sleep ${nightId}] ${l}`),
      },
      { seedTasks, dryRun: night.dryRun },
    );
    ctx.log.info(
      `[sleep ${nightId}] night ${out.report.night}: ${out.report.nTasks} tasks, ${out.report.gateAction || "no gate"}${out.stagingDir ? `, staged ${out.stagingDir}` : ""}`,
    );
    return "done";
  } catch (err) {
    await markNightFailed(nightId, errorLine(err));
    ctx.log.warn(`[sleep ${nightId}] failed: ${errorLine(err)}`);
    throw err instanceof UnrecoverableError ? err : new UnrecoverableError(errorLine(err));
  }
}
