/**
 * The end of a step (spec §7.11): record the state in the step record, write the skill snapshots,
 * history and step record, then the runtime state (the commit point), then tell the event sink.
 */
import { skillKey, stepDir, type RunContext } from "./context";
import { historyJsonText } from "./history-file";
import { skillHash } from "./scoring";
import { HISTORY_KEY, saveState, type TrainState } from "./state";
import type { StepRecord } from "./types";
import { ARTIFACT } from "../contracts/artifacts";

export async function commitStep(
  ctx: RunContext,
  st: TrainState,
  opts: { rec: StepRecord; started: number; withOrigins: boolean },
): Promise<void> {
  const { rec } = opts;
  Object.assign(rec, {
    current_score: st.currentScore,
    best_score: st.bestScore,
    best_step: st.bestStep,
  });
  if (opts.withOrigins) Object.assign(rec, { current_origin: st.currentOrigin, best_origin: st.bestOrigin });
  Object.assign(rec, {
    skill_len: st.currentSkill.length,
    wall_time_s: Math.round((ctx.clock.now() - opts.started) / 100) / 10,
  });
  st.lastCompletedStep = rec.step;
  st.history = [...st.history.filter((h) => h.step !== rec.step), rec];
  await ctx.store.putText(skillKey(rec.step), st.currentSkill);
  await ctx.store.putText(ARTIFACT.bestSkill, st.bestSkill);
  // The same bytes as putJson would write, without re-serialising every earlier record at every step.
  await ctx.store.putText(HISTORY_KEY, `${historyJsonText(st.history)}\n`);
  await ctx.store.putJson(`${stepDir(rec.step)}/step_record.json`, rec);
  // The event goes out before the commit point: a crash in between re-runs the step from its memos
  // (no new calls) and re-emits it, so sinks upsert by step and nothing is ever lost.
  await ctx.emit({
    type: "stepCommitted",
    step: rec.step,
    epoch: rec.epoch,
    action: String(rec.action ?? ""),
    record: rec,
    currentSkill: st.currentSkill,
    currentHash: skillHash(st.currentSkill),
    bestSkill: st.bestSkill,
    bestHash: skillHash(st.bestSkill),
    currentScore: st.currentScore ?? 0,
    bestScore: st.bestScore ?? 0,
    bestStep: st.bestStep,
    bestOrigin: st.bestOrigin,
    tokens: ctx.usage.snapshot(),
  });
  await saveState(ctx, st);
}
