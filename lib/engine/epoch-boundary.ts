/**
 * Epoch boundary (spec §10): the slow update writes longitudinal guidance into the protected block of
 * the skill, then the meta skill writes the optimizer's cross-epoch memory. Both read the same
 * longitudinal pairs (rolled out once) and the meta skill reads nothing the slow update writes, so its
 * call runs while the slow update runs; the two are committed in order, in one state save, so a resumed
 * run neither repeats nor skips one and never counts a replayed call's usage twice.
 */
import { epochDir, skillKey, type RunContext } from "./context";
import {
  parseGuidance,
  previousEpochSkill,
  savePairs,
  sharedPairs,
  type BoundaryInput,
  type SharedPairs,
} from "./epoch-common";
import { commitMetaSkill, draftMetaSkill } from "./epoch-meta";
import { decideGate } from "./gate";
import { evidenceFromRecord, evidenceRecord, evidenceSeed, gateEvidence } from "./gate-evidence";
import { formatComparison, type PairsResult } from "./longitudinal";
import { compareOnSelection, gateScoreOf, scoreOnSelection } from "./phases/evaluate";
import { toEvalItem } from "./phases/rollout";
import { extractSlowUpdate, injectEmptySlowUpdate, replaceSlowUpdate } from "./protected";
import { slowUpdateSystemPrompt, slowUpdateUserPrompt } from "./prompts/epoch";
import { skillHash } from "./scoring";
import { saveState, type TrainState } from "./state";
import { coverageRecord } from "./step-gate";
import { ARTIFACT } from "../contracts/artifacts";
import type { EvalItem } from "../contracts/events";

export type { BoundaryInput } from "./epoch-common";
export { readMetaContent } from "./epoch-meta";

const UPDATE_TARGET = "address longitudinal regressions and persistent failures across epochs";
const pad2 = (n: number) => String(n).padStart(2, "0");

/** Runs what is left of this epoch's boundary work; false when it had all been done before. */
export async function runEpochBoundary(ctx: RunContext, st: TrainState, input: BoundaryInput): Promise<boolean> {
  const slow = ctx.cfg.optimizer.use_slow_update && st.slowDoneEpoch < input.epoch;
  const meta = ctx.cfg.optimizer.use_meta_skill && st.metaDoneEpoch < input.epoch;
  if (!slow && !meta) return false;
  // The meta skill compares the skill of the epoch's last step, before this boundary's slow update.
  const lastStepSkillKey = `${epochDir("meta_skill", input.epoch)}/epoch_last_step_skill.md`;
  if ((await ctx.store.getText(lastStepSkillKey)) === undefined)
    await ctx.store.putText(lastStepSkillKey, st.currentSkill);
  const lastStepSkill = (await ctx.store.getText(lastStepSkillKey)) ?? st.currentSkill;
  const pairs = sharedPairs(ctx, st, input, lastStepSkill);
  // Both settle before either commits: a failure in one never leaves the other's call running unseen.
  const [s, m] = await Promise.allSettled([
    slow ? slowUpdate(ctx, st, input, pairs) : Promise.resolve(false),
    meta ? draftMetaSkill(ctx, st, input, lastStepSkill, pairs) : Promise.resolve(null),
  ]);
  if (s.status === "rejected") throw s.reason;
  if (m.status === "rejected") throw m.reason;
  if (m.value) await commitMetaSkill(ctx, st, input.epoch, m.value);
  await saveState(ctx, st);
  return true;
}

/** The slow-update gate's own evaluation of its candidate, for the per-item rows (not part of slow_result.json). */
interface GateScored {
  candidateHash: string;
  results: EvalItem[];
}

/** The slow update; it commits its part of the state (the caller saves it). */
async function slowUpdate(ctx: RunContext, st: TrainState, input: BoundaryInput, pairsOf: SharedPairs): Promise<true> {
  const { epoch } = input;
  const scored: { gate?: GateScored } = {};
  const dir = epochDir("slow_update", epoch);
  const started = ctx.clock.now();
  let result: Record<string, unknown>;
  let content: string | null = null;
  let selectionHard: number | null = null;
  if (epoch === 1) {
    st.currentSkill = injectEmptySlowUpdate(st.currentSkill);
    st.currentOrigin = "slow_update_placeholder_epoch_01";
    result = { action: "inject_placeholder", epoch: 1 };
  } else {
    const [prevSkill, pairs] = await Promise.all([previousEpochSkill(ctx, st, epoch), pairsOf()]);
    await savePairs(ctx, dir, pairs);
    const answer = await ctx.askOptimizer({
      key: `${dir}/calls/slow_update.json`,
      stage: "slow_update",
      system: slowUpdateSystemPrompt(),
      user: slowUpdateUserPrompt({
        prevSkill,
        currSkill: st.currentSkill,
        existing: extractSlowUpdate(st.currentSkill),
        comparison: formatComparison(pairs.selected),
        nPairs: pairs.selected.length,
      }),
      maxTokens: 16384,
    });
    const g = answer.ok ? parseGuidance(answer.text, "slow_update_content") : null;
    const timeS = Math.round((ctx.clock.now() - started) / 100) / 10;
    if (!g) {
      result = { action: "no_content", epoch, time_s: timeS };
    } else {
      content = g.content;
      result = await applyGuidance(ctx, st, { ...input, dir, g, pairs, timeS, scored });
      selectionHard = typeof result.selection_hard === "number" ? result.selection_hard : null;
    }
  }
  await ctx.store.putJson(`${dir}/slow_result.json`, result);
  await ctx.store.putText(skillKey(input.lastStep), st.currentSkill);
  await ctx.store.putText(ARTIFACT.bestSkill, st.bestSkill);
  st.slowDoneEpoch = epoch;
  await ctx.emit({
    type: "slowUpdateApplied",
    epoch,
    action: String(result.action),
    content,
    currentSkill: st.currentSkill,
    selectionHard,
    bestScore: st.bestScore,
    bestOrigin: st.bestOrigin,
    bestSkill: st.bestSkill,
    evidence: evidenceFromRecord(result.gate_evidence),
    ...(scored.gate ? { gateScored: scored.gate } : {}),
  });
  return true;
}

async function applyGuidance(
  ctx: RunContext,
  st: TrainState,
  opts: BoundaryInput & {
    dir: string;
    g: { reasoning: string; content: string };
    pairs: PairsResult;
    timeS: number;
    scored: { gate?: GateScored };
  },
): Promise<Record<string, unknown>> {
  const candidate = replaceSlowUpdate(st.currentSkill, opts.g.content);
  await ctx.store.putText(`${opts.dir}/candidate_skill.md`, candidate);
  const origin = `slow_update_epoch_${pad2(opts.epoch)}`;
  const result: Record<string, unknown> = {
    reasoning: opts.g.reasoning,
    slow_update_content: opts.g.content,
    epoch: opts.epoch,
    time_s: opts.timeS,
    prev_hard: opts.pairs.prevHard,
    curr_hard: opts.pairs.currHard,
    candidate_hash: skillHash(candidate),
    update_origin: "slow_update_momentum",
    update_target: UPDATE_TARGET,
  };
  if (ctx.cfg.optimizer.slow_update_gate_with_selection)
    return { ...result, ...(await gateGuidance(ctx, st, { ...opts, candidate, origin })) };
  // Force mode: the guidance becomes current without competing for best; the cache holds the gate-space
  // score in the hard slot (a known quirk of the original, kept for identical decisions). The score, and
  // so `currentRef`, stays that of the skill it was injected into.
  st.currentSkill = candidate;
  st.selCache[skillHash(candidate)] = [st.currentScore ?? 0, 0];
  st.currentOrigin = origin;
  return { ...result, action: "force_accept" };
}

/** The slow gate is always a real gate, even with use_gate off (as in the original), and pairs like the step gate. */
async function gateGuidance(
  ctx: RunContext,
  st: TrainState,
  opts: BoundaryInput & { dir: string; candidate: string; origin: string; scored: { gate?: GateScored } },
): Promise<Record<string, unknown>> {
  const { candidate, origin } = opts;
  const s = await scoreOnSelection(ctx, st, {
    skill: candidate,
    dir: `${opts.dir}/selection_eval`,
    items: opts.selectionItems,
  });
  // A cached score has no rows of its own (the earlier evaluation of the same skill stored them).
  if (!s.cached) opts.scored.gate = { candidateHash: skillHash(candidate), results: s.results.map(toEvalItem) };
  const score = gateScoreOf(ctx, s, candidate);
  const cand = { sel: s, gate: score, skill: candidate };
  const cur = compareOnSelection(ctx, st, cand, {
    score: st.currentScore ?? 0,
    skill: st.currentSkill,
    ref: st.currentRef,
  });
  const scored = {
    selection_hard: s.hard,
    selection_soft: s.soft,
    ...(cur.nPaired < cur.nItems ? coverageRecord(cur) : {}),
  };
  if (cur.skipReason !== null) return { ...scored, action: "skip_errors", gate_skip_reason: cur.skipReason };
  const best = compareOnSelection(ctx, st, cand, { score: st.bestScore ?? 0, skill: st.bestSkill, ref: st.bestRef });
  const ev = cur.pairs
    ? gateEvidence(cur.pairs, { seed: evidenceSeed(ctx.cfg.train.seed, { epoch: opts.epoch }) })
    : null;
  const d = decideGate({
    candidateScore: score,
    currentScore: st.currentScore ?? 0,
    bestScore: st.bestScore ?? 0,
    bestStep: st.bestStep,
    step: opts.lastStep,
    useGate: true,
    vsCurrent: [cur.candidate, cur.incumbent],
    vsBest: [best.candidate, best.incumbent],
    requireSignificance: ctx.cfg.evaluation.gate_rule === "significant",
    significant: ev?.significant,
  });
  if (d.candidateBecomesCurrent)
    Object.assign(st, {
      currentSkill: candidate,
      currentScore: d.currentScore,
      currentRef: s.hash,
      currentOrigin: origin,
    });
  if (d.candidateBecomesBest)
    Object.assign(st, {
      bestSkill: candidate,
      bestScore: d.bestScore,
      bestRef: s.hash,
      bestStep: d.bestStep,
      bestOrigin: origin,
    });
  const evidence = ev ? { gate_evidence: evidenceRecord(ev) } : {};
  return { ...scored, action: d.action, ...evidence };
}
