/**
 * The training state and its commit point, `runtime_state.json`. Everything a later step needs is in
 * here or behind a store key — nothing lives only in memory — so a run resumes in any process with
 * exactly the state of the uninterrupted run: scores, skills, the scheduler counter, the selection cache
 * (including the baseline), the gate-patience counter and the epoch-boundary progress.
 */
import type { RunContext } from "./context";
import { skillKey } from "./context";
import type { Outcomes } from "./outcomes";
import type { StepRecord, TokensByStage } from "./types";
import { ARTIFACT } from "../contracts/artifacts";
import { stateJsonText } from "./state-file";

export interface TrainState {
  currentSkill: string;
  currentScore: number | null;
  currentOrigin: string;
  bestSkill: string;
  bestScore: number | null;
  bestStep: number;
  bestOrigin: string;
  lastCompletedStep: number;
  schedulerStep: number;
  /** Selection (hard, soft) by skill hash, over the items the skill answered. */
  selCache: Record<string, [number, number]>;
  /** Per-item selection outcomes by skill hash, so any two skills can be compared on the items both answered. */
  selOutcomes: Record<string, Outcomes>;
  /**
   * The selection-cache hash whose outcomes stand behind `currentScore` / `bestScore`. It can differ from
   * the hash of the skill text: the appendix flush and a force-injected slow update change the text but
   * keep the score. Null when unknown (a state saved before outcomes were kept): comparisons then use the
   * stored scores.
   */
  currentRef: string | null;
  bestRef: string | null;
  consecutiveRejects: number;
  /** Last epoch whose slow update / meta skill finished. */
  slowDoneEpoch: number;
  metaDoneEpoch: number;
  stopReason: string | null;
  tokens: TokensByStage;
  /** Step records so far (history.json), loaded once and rewritten at each commit. */
  history: StepRecord[];
}

interface RuntimeStateFile {
  last_completed_step: number;
  current_skill_path: string;
  current_skill: string;
  current_score: number | null;
  current_origin: string;
  best_skill_path: string;
  best_skill: string;
  best_score: number | null;
  best_step: number;
  best_origin: string;
  scheduler: { current_step: number };
  sel_cache: Record<string, [number, number]>;
  /** Added after the original's format; absent in older states. */
  sel_outcomes?: Record<string, Outcomes>;
  current_score_hash?: string | null;
  best_score_hash?: string | null;
  consecutive_rejects: number;
  slow_update_done_epoch: number;
  meta_skill_done_epoch: number;
  stop_reason: string | null;
  token_summary: TokensByStage;
}

export const RUNTIME_STATE_KEY = "runtime_state.json";
export const HISTORY_KEY = "history.json";

export function freshState(initialSkill: string): TrainState {
  return {
    currentSkill: initialSkill,
    currentScore: null,
    currentOrigin: "initial_skill",
    bestSkill: initialSkill,
    bestScore: null,
    bestStep: 0,
    bestOrigin: "initial_skill",
    lastCompletedStep: 0,
    schedulerStep: 0,
    selCache: {},
    selOutcomes: {},
    currentRef: null,
    bestRef: null,
    consecutiveRejects: 0,
    slowDoneEpoch: 0,
    metaDoneEpoch: 0,
    stopReason: null,
    tokens: {},
    history: [],
  };
}

/** The saved state, or null for a fresh run. A persisted score of 0 is a score (deviation from the original). */
export async function loadState(ctx: RunContext): Promise<TrainState | null> {
  const s = await ctx.store.getJson<RuntimeStateFile>(RUNTIME_STATE_KEY);
  if (!s || typeof s !== "object") return null;
  return {
    currentSkill: s.current_skill,
    currentScore: s.current_score,
    currentOrigin: s.current_origin,
    bestSkill: s.best_skill,
    bestScore: s.best_score,
    bestStep: s.best_step,
    bestOrigin: s.best_origin,
    lastCompletedStep: s.last_completed_step,
    schedulerStep: s.scheduler?.current_step ?? 0,
    selCache: s.sel_cache ?? {},
    selOutcomes: s.sel_outcomes ?? {},
    currentRef: s.current_score_hash ?? null,
    bestRef: s.best_score_hash ?? null,
    consecutiveRejects: s.consecutive_rejects ?? 0,
    slowDoneEpoch: s.slow_update_done_epoch ?? 0,
    metaDoneEpoch: s.meta_skill_done_epoch ?? 0,
    stopReason: s.stop_reason ?? null,
    tokens: s.token_summary ?? {},
    history: (await ctx.store.getJson<StepRecord[]>(HISTORY_KEY)) ?? [],
  };
}

/** Writes the commit point. Call it last, after the artefacts it refers to. */
export async function saveState(ctx: RunContext, st: TrainState): Promise<void> {
  st.tokens = ctx.usage.snapshot();
  const file: RuntimeStateFile = {
    last_completed_step: st.lastCompletedStep,
    current_skill_path: skillKey(st.lastCompletedStep),
    current_skill: st.currentSkill,
    current_score: st.currentScore,
    current_origin: st.currentOrigin,
    best_skill_path: ARTIFACT.bestSkill,
    best_skill: st.bestSkill,
    best_score: st.bestScore,
    best_step: st.bestStep,
    best_origin: st.bestOrigin,
    scheduler: { current_step: st.schedulerStep },
    sel_cache: st.selCache,
    sel_outcomes: st.selOutcomes,
    current_score_hash: st.currentRef,
    best_score_hash: st.bestRef,
    consecutive_rejects: st.consecutiveRejects,
    slow_update_done_epoch: st.slowDoneEpoch,
    meta_skill_done_epoch: st.metaDoneEpoch,
    stop_reason: st.stopReason,
    token_summary: st.tokens,
  };
  // The same bytes as putJson would write, without re-serialising every skill's outcomes at every step.
  await ctx.store.putText(RUNTIME_STATE_KEY, `${stateJsonText(file)}\n`);
}
