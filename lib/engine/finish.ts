/**
 * End of training (spec §11): validate the final skill on the selection split (promoting it when it
 * beats best — a force-injected slow update never competed otherwise), test the initial, best and final
 * skills, and write summary.json.
 */
import type { RunContext } from "./context";
import { answeredScore, isAnswered, outcomesOf, statusCounts } from "./outcomes";
import { compareOnSelection, evalItems, gateScoreOf } from "./phases/evaluate";
import { rolloutItems, toEvalItem } from "./phases/rollout";
import { skillHash } from "./scoring";
import { evidenceSeed, gateEvidence } from "./gate-evidence";
import { leakageCounts } from "./leakage";
import { coverageRecord } from "./step-gate";
import { saveState, type TrainState } from "./state";
import type { Item, Splits, Trajectory } from "./types";
import { redactSecrets } from "../contracts/redact";
import { ARTIFACT } from "../contracts/artifacts";

export type Buckets = Record<string, { total: number; hard_acc: number }>;

/** Hard accuracy per task type over the answered rows (unanswered ones are counted in the events instead). */
export function taskTypeBuckets(rows: readonly Trajectory[], taskTypes: readonly string[]): Buckets {
  const acc = new Map<string, { total: number; hard: number }>();
  for (const t of [...taskTypes, "overall"]) acc.set(t, { total: 0, hard: 0 });
  for (const r of rows.filter(isAnswered)) {
    for (const k of [r.taskType || "other", "overall"]) {
      const b = acc.get(k) ?? { total: 0, hard: 0 };
      b.total += 1;
      b.hard += Number(r.hard) || 0;
      acc.set(k, b);
    }
  }
  const out: Buckets = {};
  for (const [k, v] of acc) out[k] = { total: v.total, hard_acc: v.hard / Math.max(v.total, 1) };
  return out;
}

async function testRun(
  ctx: RunContext,
  opts: { skill: string; dir: string; items: Item[]; which: "initial" | "best" | "final"; reuse?: Trajectory[] },
): Promise<{ hard: number; soft: number; rows: Trajectory[] }> {
  const rows =
    opts.reuse ??
    (await rolloutItems(ctx, {
      dir: opts.dir,
      items: opts.items,
      skill: opts.skill,
      phase: "test",
      seed: ctx.cfg.train.seed,
    }));
  const buckets = taskTypeBuckets(rows, ctx.env.taskTypes());
  await ctx.store.putJson(`${opts.dir}/summary.json`, buckets);
  const { hard, soft } = answeredScore(rows);
  await ctx.emit({
    type: "testScored",
    which: opts.which,
    hard,
    soft,
    nItems: rows.length,
    ...statusCounts(rows),
    byTaskType: buckets,
    results: rows.map(toEvalItem),
  });
  return { hard, soft, rows };
}

export interface FinishInput {
  splits: Splits;
  initialSkill: string;
  selectionItems: Item[];
  startedAt: number;
}

/**
 * Scores the final skill on the selection items and promotes it when it beats best on the items both
 * answered — unless too many items went unanswered to tell (then best stays, and the summary says why).
 */
async function validateFinal(
  ctx: RunContext,
  st: TrainState,
  items: Item[],
  out: Record<string, unknown>,
): Promise<void> {
  const rows = await rolloutItems(ctx, {
    dir: "final_selection_eval",
    items,
    skill: st.currentSkill,
    phase: "selection",
    seed: ctx.cfg.train.seed,
  });
  const s = answeredScore(rows);
  const score = gateScoreOf(ctx, s, st.currentSkill);
  Object.assign(out, { final_selection_hard: s.hard, final_selection_soft: s.soft });
  const outcomes = outcomesOf(rows);
  const sel = {
    ...s,
    cached: false,
    results: rows,
    hash: skillHash(st.currentSkill),
    outcomes,
    nItems: rows.length,
    counts: statusCounts(rows),
  };
  const cmp = compareOnSelection(
    ctx,
    st,
    { sel, gate: score, skill: st.currentSkill },
    { score: st.bestScore ?? 0, skill: st.bestSkill, ref: st.bestRef, label: "best skill" },
  );
  if (cmp.nPaired < cmp.nItems) Object.assign(out, coverageRecord(cmp, "final_selection"));
  const evidence =
    cmp.pairs && cmp.skipReason === null
      ? gateEvidence(cmp.pairs, { seed: evidenceSeed(ctx.cfg.train.seed, { final: true }) })
      : null;
  const checked = {
    type: "finalSelectionChecked" as const,
    step: st.lastCompletedStep,
    hard: s.hard,
    soft: s.soft,
    gateScore: score,
    origin: st.currentOrigin,
    skillHash: sel.hash,
  };
  if (cmp.skipReason !== null) {
    out.final_selection_skip_reason = cmp.skipReason;
    await ctx.emit({
      ...checked,
      promoted: false,
      skipReason: cmp.skipReason,
      bestScore: st.bestScore,
      bestOrigin: st.bestOrigin,
      bestSkill: st.bestSkill,
    });
    return;
  }
  const promoted = st.bestScore === null || cmp.candidate > cmp.incumbent;
  if (promoted) {
    Object.assign(st, {
      bestSkill: st.currentSkill,
      bestScore: score,
      bestRef: sel.hash,
      bestStep: st.lastCompletedStep,
      bestOrigin: st.currentOrigin,
    });
    await ctx.store.putText(ARTIFACT.bestSkill, st.bestSkill);
    await saveState(ctx, st);
  }
  await ctx.emit({
    ...checked,
    promoted,
    skipReason: null,
    bestScore: st.bestScore,
    bestOrigin: st.bestOrigin,
    bestSkill: st.bestSkill,
    evidence,
  });
}

export async function finishTraining(
  ctx: RunContext,
  st: TrainState,
  input: FinishInput,
): Promise<Record<string, unknown>> {
  await ctx.store.putText(ARTIFACT.bestSkill, st.bestSkill);
  const ev = ctx.cfg.evaluation;
  const out: Record<string, unknown> = {
    final_selection_hard: null,
    final_selection_soft: null,
    baseline_test_hard: null,
    baseline_test_soft: null,
    test_hard: null,
    test_soft: null,
    final_test_hard: null,
    final_test_soft: null,
  };
  if (ev.eval_test) {
    const same = skillHash(st.currentSkill) === skillHash(st.bestSkill);
    if (same) {
      out.final_selection_hard = st.bestScore;
    } else {
      await validateFinal(ctx, st, input.selectionItems, out);
    }
    const testItems = evalItems(ctx, input.splits, "test");
    const base = await testRun(ctx, {
      skill: input.initialSkill,
      dir: "test_eval_baseline",
      items: testItems,
      which: "initial",
    });
    const best = await testRun(ctx, { skill: st.bestSkill, dir: "test_eval", items: testItems, which: "best" });
    const fin = await testRun(ctx, {
      skill: st.currentSkill,
      dir: "test_eval_final",
      items: testItems,
      which: "final",
      reuse: skillHash(st.currentSkill) === skillHash(st.bestSkill) ? best.rows : undefined,
    });
    Object.assign(out, {
      baseline_test_hard: base.hard,
      baseline_test_soft: base.soft,
      test_hard: best.hard,
      test_soft: best.soft,
      final_test_hard: fin.hard,
      final_test_soft: fin.soft,
    });
  }
  const summary = buildSummary(ctx, st, input, out);
  await ctx.store.putJson(ARTIFACT.summary, summary);
  return summary;
}

function buildSummary(
  ctx: RunContext,
  st: TrainState,
  input: FinishInput,
  tests: Record<string, unknown>,
): Record<string, unknown> {
  const h = st.history;
  const actions = h.map((r) => String(r.action ?? ""));
  const epochs = [...new Set(h.map((r) => r.epoch))].sort((a, b) => a - b);
  const baseline = st.selCache[skillHash(input.initialSkill)];
  const delta = (a: unknown, b: unknown) => (typeof a === "number" && typeof b === "number" ? a - b : null);
  const errorSkips = actions.filter((a) => a === "skip_errors").length;
  return {
    version: "skillopt-ts-0.1.0",
    config: redactSecrets(ctx.cfg),
    baseline_selection_hard: baseline ? baseline[0] : null,
    best_selection_hard: st.bestScore,
    ...tests,
    best_step: st.bestStep,
    current_origin: st.currentOrigin,
    best_origin: st.bestOrigin,
    total_steps: h.length,
    total_accepts: actions.filter((a) => a.includes("accept")).length,
    total_rejects: actions.filter((a) => a === "reject").length,
    total_skips: actions.filter((a) => a === "skip_no_patches").length,
    // Only present when it happened, so summaries of runs without unanswered items stay as they were.
    ...(errorSkips > 0 ? { total_error_skips: errorSkips } : {}),
    stop_reason: st.stopReason ?? "completed",
    epoch_stats: epochs.map((e) => {
      const rs = h.filter((r) => r.epoch === e);
      const last = rs[rs.length - 1];
      return {
        epoch: e,
        steps: rs.map((r) => r.step),
        accepts: rs.filter((r) => String(r.action).includes("accept")).length,
        rejects: rs.filter((r) => r.action === "reject").length,
        skips: rs.filter((r) => r.action === "skip_no_patches").length,
        best_score_at_epoch_end: last?.best_score ?? null,
        current_score_at_epoch_end: last?.current_score ?? null,
      };
    }),
    test_delta_hard: delta(tests.test_hard, tests.baseline_test_hard),
    final_test_delta_hard: delta(tests.final_test_hard, tests.baseline_test_hard),
    total_wall_time_s: Math.round((ctx.clock.now() - input.startedAt) / 100) / 10,
    token_summary: ctx.usage.summary(),
    // Items shared across splits and skill lines holding evaluation data (lib/engine/leakage.ts).
    leakage: leakageCounts(input.splits, { seed: input.initialSkill, best: st.bestSkill }),
  };
}
