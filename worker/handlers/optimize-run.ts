/**
 * Runs one training run for a queue job: claim the run row, build the engine's deps from the stored
 * config, drive the engine with a database checkpoint store, persist each event with its rows, and
 * record how the run ended. Cancellation and worker shutdown reach the engine through an AbortSignal.
 */
import { runConfigOf, findRun } from "../../lib/db/runs";
import { ReviewPendingError, RunCancelledError, runTraining, stopRunOf } from "../../lib/engine";
import { askForReview } from "../../lib/db/gate-reviews";
import { prepareRun } from "../../lib/runs/prepare";
import { RunOwnershipLostError } from "../../lib/db/run-owner";
import { ensureRunPackages } from "../../lib/runs/system-packages";
import { claimForJob, finishRun, startRunWatch, type RunWatch } from "./run-lifecycle";
import { createOwnerWriters } from "./event-sink";
import { UsageFlusher } from "../../lib/runs/usage-flusher";
import type { HandlerContext } from "./context";
import { createFanOutRunner } from "../fanout/runner";
import { sharedBudgetOf } from "../../lib/backends/policy/shared-budget";

export type { HandlerContext };

export async function handleOptimizeRun(runId: string, ctx: HandlerContext): Promise<string> {
  const run = await findRun(runId);
  if (!run) {
    ctx.log.warn(`job for unknown run ${runId}: skipped`);
    return "missing";
  }
  if (!(await claimForJob(run, ctx))) return "not-claimed";
  const watch: RunWatch = startRunWatch(runId, ctx);
  let flush: () => Promise<void> = async () => {};
  try {
    const config = runConfigOf(run);
    // A resumed run keeps spending from its budget where the last committed step left it.
    const spent = { usd: run.costUsd ?? 0, calls: run.calls };
    // Fanned out, other workers spend from it too: the counts live in Redis (the database's only start them).
    const budget = config.worker.fan_out ? sharedBudgetOf(runId, config.budget, spent) : undefined;
    await budget?.beginSession();
    await ensureRunPackages(config, {
      install: true,
      env: process.env,
      say: (m) => ctx.log.info(`[run ${runId}] ${m}`),
    });
    // Created through the API: its paths are checked again (a file may have changed since), then a ratio split is written.
    const prepared = prepareRun({
      config,
      rootDir: ctx.rootDir,
      skillText: run.seedSkill,
      env: process.env,
      policy: { spent, budget },
      trust: "request",
    });
    prepared.materialiseSplits();
    for (const w of prepared.warnings) ctx.log.warn(`[run ${runId}] ${w}`);
    // Writes behind, fenced by this worker's ownership: the sink flushes the store before each commit
    // point, the engine before it returns or throws.
    const { sink, store } = await createOwnerWriters({
      runId,
      committedSteps: run.stepsDone,
      ctx,
      usage: new UsageFlusher(() => prepared.policy.stats()),
      stopCause: watch.cause,
    });
    flush = sink.flushUsage;
    await runTraining({
      config,
      splits: prepared.splits,
      initialSkill: prepared.initialSkill,
      env: prepared.env,
      optimizer: prepared.optimizer,
      target: prepared.target,
      store,
      // worker.fan_out: rollout batches become chunk jobs that every worker on this Redis and database runs.
      rollouts: config.worker.fan_out ? createFanOutRunner({ runId, config, store }) : undefined,
      events: sink,
      clock: { now: () => Date.now() },
      signal: watch.signal,
      reviewer: { answer: (req) => askForReview(runId, req, new Date()) },
      logger: { info: (m) => ctx.log.info(`[run ${runId}] ${m}`), warn: (m) => ctx.log.warn(`[run ${runId}] ${m}`) },
    });
    watch.stop();
    await finishRun(runId, { kind: "succeeded" }, ctx);
    return "succeeded";
  } catch (err) {
    watch.stop();
    return await endAfterError(runId, err, watch, ctx);
  } finally {
    // Calls made after the last commit (a cancel, a failure) are still counted.
    if (watch.cause() !== "lost")
      await flush().catch((e: unknown) => ctx.log.warn(`[run ${runId}] usage not saved: ${String(e)}`));
    watch.stop();
  }
}

async function endAfterError(runId: string, err: unknown, watch: RunWatch, ctx: HandlerContext): Promise<string> {
  // A write found the run handed on before the watch's next poll did: the same as a lost run.
  if (err instanceof RunOwnershipLostError) {
    ctx.log.warn(`[run ${runId}] stopped: the run is no longer this worker's (${err.message}); nothing more written`);
    return "lost";
  }
  if (err instanceof RunCancelledError) {
    const cause = watch.cause();
    if (cause === "lost") {
      ctx.log.warn(`[run ${runId}] stopped: another worker took the run over while this one was unresponsive`);
      return "lost";
    }
    await finishRun(runId, { kind: cause === "cancel" ? "cancelled" : "shutdown" }, ctx);
    return cause === "cancel" ? "cancelled" : "requeued";
  }
  if (err instanceof ReviewPendingError) {
    await finishRun(runId, { kind: "awaiting_review" }, ctx);
    return "awaiting_review";
  }
  if (stopRunOf(err) === "pause") {
    await finishRun(runId, { kind: "paused", error: err }, ctx);
    return "paused";
  }
  await finishRun(runId, { kind: "failed", error: err }, ctx);
  return "failed";
}
