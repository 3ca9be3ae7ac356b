/**
 * One training step (spec §7): rollout → reflect over the accumulation batches, then aggregate →
 * select → update → gate, the skill-aware flush, the step-buffer entry and the commit.
 */
import { flushAppendix } from "./appendix-flush";
import { stepDir, type RunContext } from "./context";
import { rolloutAndReflect, secs } from "./step-reflect";
import { summarizeApplyReport } from "./patch";
import { mergePatches, patchItems } from "./phases/aggregate";
import { toEvalItem } from "./phases/rollout";
import { editViews } from "./edit-view";
import { selectEdits } from "./phases/select";
import { buildCandidate } from "./phases/update";
import { metaBlock } from "./prompts/epoch";
import type { Scheduler } from "./schedule";
import { statusCounts } from "./outcomes";
import { skillHash } from "./scoring";
import { scoreAndGate } from "./step-gate";
import type { TrainBatch } from "./split-plan";
import type { TrainState } from "./state";
import { buildBufferEntry, formatStepBuffer, type StepBufferEntry } from "./step-buffer";
import { commitStep } from "./step-commit";
import type { AnalystResult, Item, StepRecord } from "./types";
import { UsageTracker } from "./usage";

export interface StepInput {
  step: number;
  epoch: number;
  stepInEpoch: number;
  batches: TrainBatch[];
  buffer: StepBufferEntry[];
  metaCtx: string;
  scheduler: Scheduler;
  selectionItems: Item[];
}

export async function runStep(ctx: RunContext, st: TrainState, input: StepInput): Promise<StepBufferEntry | null> {
  const started = ctx.clock.now();
  const tokensBefore = ctx.usage.snapshot();
  const sd = stepDir(input.step);
  const mode = ctx.plan.updateMode;
  const rec: StepRecord = {
    step: input.step,
    epoch: input.epoch,
    step_in_epoch: input.stepInEpoch,
    timing: {},
    tokens: {},
  };
  const timing = rec.timing as Record<string, number>;
  await ctx.emit({ type: "stepStarted", step: input.step, epoch: input.epoch, stepInEpoch: input.stepInEpoch });

  const c = await rolloutAndReflect(ctx, st, input, rec);
  await ctx.emit({
    type: "rolloutCompleted",
    step: input.step,
    hard: rec.rollout_hard as number,
    soft: rec.rollout_soft as number,
    n: c.results.length,
    ...statusCounts(c.results),
    results: c.results.map(toEvalItem),
  });
  await ctx.emit({
    type: "patchesProposed",
    step: input.step,
    nFailurePatches: c.failure.length,
    nSuccessPatches: c.success.length,
    nInvalid: c.nInvalid,
    edits: [...c.failure, ...c.success].flatMap((p) => editViews(patchItems(p, mode), mode)),
    sources: c.sources,
  });
  if (c.failure.length === 0 && c.success.length === 0) {
    return skipStep(ctx, st, { rec, raw: c.raw, action: "skip_no_patches", started, input });
  }
  ctx.checkAbort();
  const metaText = metaBlock(input.metaCtx);
  const bufferText = formatStepBuffer(input.buffer);

  let t = ctx.clock.now();
  const merge = await mergePatches(ctx, {
    stepDir: sd,
    skill: st.currentSkill,
    failure: c.failure,
    success: c.success,
    metaBlock: metaText,
  });
  await ctx.store.putJson(`${sd}/merged_patch.json`, merge.merged);
  const mergedItems = patchItems(merge.merged, mode);
  Object.assign(rec, { n_edits_merged: mergedItems.length, n_merge_fallbacks: merge.fallbacks });
  timing.aggregate_s = secs(ctx.clock.now() - t);
  await ctx.emit({
    type: "patchesMerged",
    step: input.step,
    nMerged: mergedItems.length,
    fallbacks: merge.fallbacks,
    edits: editViews(mergedItems, mode),
    from: merge.from,
  });
  ctx.checkAbort();

  t = ctx.clock.now();
  const sel = await selectEdits(ctx, {
    stepDir: sd,
    skill: st.currentSkill,
    merged: merge.merged,
    scheduler: input.scheduler,
    evidence: {
      rolloutN: rec.rollout_n as number,
      rolloutHard: rec.rollout_hard as number,
      rolloutSoft: rec.rollout_soft as number,
    },
    stepBuffer: bufferText,
    metaBlock: metaText,
  });
  st.schedulerStep = input.scheduler.state().current_step;
  const rankedItems = patchItems(sel.ranked, mode);
  await ctx.store.putJson(`${sd}/ranked_edits.json`, sel.ranked);
  if (sel.lrDecision) await recordLrDecision(ctx, sd, { step: input.step, epoch: input.epoch, ...sel.lrDecision });
  Object.assign(rec, {
    n_edits_ranked: rankedItems.length,
    edit_budget: sel.budget,
    lr_control_mode: ctx.plan.lrControl,
    ranking_fallback: sel.fallback,
    support_counts: rankedItems.map((it) => (typeof it.support_count === "number" ? it.support_count : 0)),
  });
  if (sel.lrDecision) rec.lr_decision = sel.lrDecision;
  timing.select_s = secs(ctx.clock.now() - t);
  await ctx.emit({
    type: "editsSelected",
    step: input.step,
    budget: sel.budget,
    lrControlMode: ctx.plan.lrControl,
    ranked: sel.rankingCalled,
    fallback: sel.fallback,
    edits: editViews(rankedItems, mode),
    merged: sel.picked,
  });
  ctx.checkAbort();

  t = ctx.clock.now();
  const upd = await buildCandidate(ctx, {
    stepDir: sd,
    skill: st.currentSkill,
    ranked: sel.ranked,
    stepBuffer: bufferText,
  });
  timing.update_s = secs(ctx.clock.now() - t);
  if (upd.candidate === null) return skipStep(ctx, st, { rec, raw: c.raw, action: "skip_no_rewrite", started, input });
  const candidate = upd.candidate;
  const candidateHash = skillHash(candidate);
  await ctx.store.putText(`${sd}/candidate_skill.md`, candidate);
  if (upd.applyReport) {
    await ctx.store.putJson(`${sd}/edit_apply_report.json`, upd.applyReport);
    rec.edit_apply_summary = summarizeApplyReport(upd.applyReport);
  }
  Object.assign(rec, { candidate_hash: candidateHash, candidate_skill_len: candidate.length });
  if (upd.rewriteResult) rec.rewrite_change_summary = upd.rewriteResult.change_summary;
  await ctx.emit({ type: "candidateBuilt", step: input.step, candidateHash, candidate, applyReport: upd.applyReport });
  ctx.checkAbort();

  const g = await scoreAndGate(ctx, st, {
    step: input.step,
    candidate,
    dir: `${sd}/selection_eval`,
    items: input.selectionItems,
    rec,
  });
  if (g.action === "skip_errors") {
    // The candidate's evaluation was paid for, so unlike the other skips this one records its tokens.
    rec.tokens = UsageTracker.delta(tokensBefore, ctx.usage.snapshot());
    return skipStep(ctx, st, { rec, raw: c.raw, action: g.action, started, input });
  }

  if (ctx.cfg.optimizer.use_skill_aware_reflection) {
    const flush = await flushAppendix(ctx, { stepDir: sd, skill: st.currentSkill, raw: c.raw });
    if (flush) {
      st.currentSkill = flush.skill;
      Object.assign(rec, flush.record);
    }
  }
  const entry = buildBufferEntry({
    step: input.step,
    action: g.action,
    results: c.results,
    failureResults: c.raw.filter((r) => r.source_type === "failure"),
    ranked: rankedItems,
    mode,
    // The scores the decision compared (over the items both skills answered).
    scoreBefore: g.vsCurrent.incumbent,
    scoreAfter: g.earlyUpperBound ?? g.vsCurrent.candidate,
    scoreAfterIsBound: g.earlyUpperBound !== undefined,
  });
  await ctx.store.putJson(`${sd}/trajectory_digest.json`, entry);
  st.consecutiveRejects = g.action === "reject" ? st.consecutiveRejects + 1 : 0;
  rec.tokens = UsageTracker.delta(tokensBefore, ctx.usage.snapshot());
  await commitStep(ctx, st, { rec, started, withOrigins: true });
  return entry;
}

async function recordLrDecision(ctx: RunContext, sd: string, decision: Record<string, unknown>): Promise<void> {
  // lr_history.jsonl is append-only: a resumed step whose decision was already logged does not log it again.
  const seen = await ctx.store.getJson(`${sd}/lr_decision.json`);
  await ctx.store.putJson(`${sd}/lr_decision.json`, decision);
  if (!seen) await ctx.store.appendLine("lr_history.jsonl", decision);
}

async function skipStep(
  ctx: RunContext,
  st: TrainState,
  opts: {
    rec: StepRecord;
    raw: AnalystResult[];
    action: "skip_no_patches" | "skip_no_rewrite" | "skip_errors";
    started: number;
    input: StepInput;
  },
): Promise<null> {
  if (ctx.cfg.optimizer.use_skill_aware_reflection) {
    const flush = await flushAppendix(ctx, {
      stepDir: stepDir(opts.input.step),
      skill: st.currentSkill,
      raw: opts.raw,
    });
    if (flush) {
      st.currentSkill = flush.skill;
      Object.assign(opts.rec, flush.record);
    }
  }
  opts.rec.action = opts.action;
  // A skip leaves no step-buffer entry, and records no token delta unless it made selection calls (as in the original).
  await commitStep(ctx, st, { rec: opts.rec, started: opts.started, withOrigins: false });
  return null;
}
