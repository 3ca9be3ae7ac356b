/**
 * The training loop (spec §5–§12): plan, baseline, epochs of steps with their boundaries, end of
 * training. It is resumable at any point: completed work is read back from the checkpoint store.
 */
import { redactSecrets } from "../contracts/redact";
import type { RunConfig } from "../contracts/run-config";
import {
  EngineError,
  RunCancelledError,
  createContext,
  settleStore,
  skillKey,
  stepDir,
  type RunContext,
  type RunPlan,
} from "./context";
import { readMetaContent, runEpochBoundary } from "./epoch-boundary";
import { finishTraining } from "./finish";
import { evalItems, gateScoreOf, scoreOnSelection } from "./phases/evaluate";
import { toEvalItem } from "./phases/rollout";
import { injectEmptyAppendix } from "./protected";
import { stopRunOf, type EngineDeps } from "./ports";
import { createScheduler } from "./schedule";
import { planRun } from "./run-plan";
import { planTrainEpoch } from "./split-plan";
import { ReviewPendingError } from "./gate-review";
import { freshState, loadState, saveState, type TrainState } from "./state";
import { measureNoiseFloor } from "./noise-floor";
import { runStep } from "./step";
import type { StepBufferEntry } from "./step-buffer";

/** The flat config with derived fields, as written to config.json (secrets redacted). */
function configRecord(cfg: RunConfig, plan: RunPlan): Record<string, unknown> {
  return redactSecrets({
    ...cfg,
    train: { ...cfg.train, train_size: plan.trainSize, steps_per_epoch: plan.stepsPerEpoch },
    derived: {
      batches_per_epoch: plan.batchesPerEpoch,
      samples_per_epoch: plan.trainSize,
      total_steps: plan.totalSteps,
      lr_control_mode: plan.lrControl,
    },
  });
}

async function baseline(
  ctx: RunContext,
  st: TrainState,
  skillInit: string,
  selectionItems: ReturnType<typeof evalItems>,
) {
  const s = await scoreOnSelection(ctx, st, {
    skill: skillInit,
    dir: "selection_eval_baseline",
    items: selectionItems,
  });
  const score = gateScoreOf(ctx, s, skillInit);
  Object.assign(st, {
    currentScore: score,
    bestScore: score,
    currentRef: s.hash,
    bestRef: s.hash,
    currentOrigin: "initial_skill",
    bestOrigin: "initial_skill",
  });
  await ctx.emit({
    type: "baselineScored",
    hard: s.hard,
    soft: s.soft,
    score,
    skillHash: s.hash,
    nItems: s.nItems,
    ...s.counts,
    results: s.results.map(toEvalItem),
  });
  await saveState(ctx, st);
}

/** Step-buffer entries of the steps of `epoch` that finished before `beforeStep` (rebuilt on resume). */
async function restoreBuffer(
  ctx: RunContext,
  st: TrainState,
  epoch: number,
  beforeStep: number,
): Promise<StepBufferEntry[]> {
  const out: StepBufferEntry[] = [];
  for (const rec of st.history.filter((h) => h.epoch === epoch && h.step < beforeStep)) {
    const entry = await ctx.store.getJson<StepBufferEntry>(`${stepDir(rec.step)}/trajectory_digest.json`);
    if (entry && !String(rec.action).startsWith("skip")) out.push(entry);
  }
  return out;
}

/**
 * Runs (or resumes) a training run to the end and returns summary.json. Emits runCancelled and throws
 * RunCancelledError when `deps.signal` aborts; emits runPaused and re-throws when a model call says the
 * budget is spent (`stopRun: "pause"`); re-throws ReviewPendingError silently when a gate waits for a
 * human review; emits runFailed and re-throws on any other error.
 */
export async function runTraining(deps: EngineDeps): Promise<Record<string, unknown>> {
  const plan = planRun(deps.config, deps.splits);
  const ctx = createContext(deps, plan);
  const cfg = ctx.cfg;
  let step: number | null = null;
  try {
    if (cfg.evaluation.human_review !== "off" && !deps.reviewer)
      throw new EngineError(
        "evaluation.human_review is on but nothing here can answer a review: run it from the dashboard (its worker asks the run page)",
        "evaluation.human_review",
      );
    const startedAt = ctx.clock.now();
    const saved = await loadState(ctx);
    const st = saved ?? freshState(deps.initialSkill);
    ctx.usage.load(st.tokens);
    const skillAware = cfg.optimizer.use_skill_aware_reflection;
    if (skillAware) st.currentSkill = injectEmptyAppendix(st.currentSkill);
    await ctx.store.putJson("config.json", configRecord(cfg, plan));
    await ctx.store.putText(skillKey(0), deps.initialSkill);
    const selectionItems = evalItems(ctx, deps.splits, "val");
    await ctx.emit({
      type: "runStarted",
      totalSteps: plan.totalSteps,
      stepsPerEpoch: plan.stepsPerEpoch,
      numEpochs: cfg.train.num_epochs,
      trainSize: plan.trainSize,
      selectionSize: selectionItems.length,
      testSize: evalItems(ctx, deps.splits, "test").length,
      resumedFromStep: saved ? st.lastCompletedStep : 0,
    });
    if (st.currentScore === null) await baseline(ctx, st, deps.initialSkill, selectionItems);
    const scheduler = createScheduler(cfg.optimizer.lr_scheduler, {
      maxLr: cfg.optimizer.learning_rate,
      minLr: cfg.optimizer.min_learning_rate,
      totalSteps: plan.totalSteps,
    });
    scheduler.load({ current_step: st.schedulerStep });
    let global = 0;
    for (let epoch = 1; epoch <= cfg.train.num_epochs && !st.stopReason; epoch++) {
      const batches = planTrainEpoch({
        items: deps.splits.train,
        epoch,
        stepsPerEpoch: plan.stepsPerEpoch,
        accumulation: cfg.train.accumulation,
        batchSize: cfg.train.batch_size,
        seed: cfg.train.seed,
      });
      const buffer = await restoreBuffer(ctx, st, epoch, st.lastCompletedStep + 1);
      const metaCtx = cfg.optimizer.use_meta_skill ? await readMetaContent(ctx, epoch - 1) : "";
      // Once per epoch, before its first step (a resumed epoch that already ran a step measured it then).
      if (global + 1 > st.lastCompletedStep)
        await measureNoiseFloor(ctx, { epoch, skill: st.currentSkill, items: selectionItems });
      let ranHere = false;
      for (let s = 0; s < plan.stepsPerEpoch && !st.stopReason; s++) {
        global += 1;
        if (global <= st.lastCompletedStep) continue;
        ranHere = true;
        step = global;
        ctx.checkAbort();
        const entry = await runStep(ctx, st, {
          step: global,
          epoch,
          stepInEpoch: s,
          batches,
          buffer,
          metaCtx,
          scheduler,
          selectionItems,
        });
        if (entry) buffer.push(entry);
        const patience = cfg.evaluation.gate_patience;
        if (patience > 0 && st.consecutiveRejects >= patience) {
          st.stopReason = `gate_patience: ${st.consecutiveRejects} consecutive rejected candidates`;
          await saveState(ctx, st);
        }
      }
      step = null;
      if (st.stopReason) break;
      ctx.checkAbort();
      const boundaryRan = await runEpochBoundary(ctx, st, {
        epoch,
        lastStep: global,
        train: deps.splits.train,
        selectionItems,
      });
      if (ranHere || boundaryRan)
        await ctx.emit({
          type: "epochCompleted",
          epoch,
          currentScore: st.currentScore ?? 0,
          bestScore: st.bestScore ?? 0,
        });
    }
    ctx.checkAbort();
    const summary = await finishTraining(ctx, st, {
      splits: deps.splits,
      initialSkill: deps.initialSkill,
      selectionItems,
      startedAt,
    });
    await deps.store.flush?.();
    await ctx.emit({
      type: "runCompleted",
      stopReason: st.stopReason ?? "completed",
      bestSkill: st.bestSkill,
      summary,
    });
    return summary;
  } catch (err) {
    await settleStore(ctx);
    if (err instanceof RunCancelledError) {
      await ctx.emit({ type: "runCancelled", step: step ?? 0 });
    } else if (err instanceof ReviewPendingError) {
      // Not an end: the reviewer port has recorded the request, and the run resumes at this gate.
    } else if (stopRunOf(err) === "pause") {
      await ctx.emit({ type: "runPaused", reason: err instanceof Error ? err.message : String(err), step: step ?? 0 });
    } else {
      await ctx.emit({ type: "runFailed", message: err instanceof Error ? err.message : String(err), step });
    }
    throw err;
  }
}
