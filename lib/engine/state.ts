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
  /**
   * Per-item selection outcomes by skill hash, so any two skills can be compared on the items both answered.
   * Each is stored once, under `selOutcomesKey(hash)`, not in runtime_state.json (see saveState). After a
   * commit only the current and best skills' stay here (what a gate compares against); any other is read
   * back from its key when a candidate hits the cache (`recallSelOutcomes`), so memory does not grow per step.
   */
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
  /**
   * Added after the original's format; absent in older states. Now stored per skill under
   * `selOutcomesKey(hash)` instead: still read here from states saved before that.
   */
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
/** One skill's per-item selection outcomes, written once when the skill is first scored. */
export const selOutcomesKey = (hash: string): string => `sel_outcomes/${hash}.json`;

/** Outcomes already under their key (written, or read from it): a commit writes only the new ones. */
const STORED = new WeakSet<Outcomes>();

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
    selOutcomes: await loadSelOutcomes(ctx, s),
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

/**
 * The outcomes of every skill in the selection cache: inline in a state saved before they had their own
 * keys, else under each one's key (an entry the cache names is always stored: it is written before the
 * state that names it). A key the cache does not name is from a step that never committed and is ignored.
 */
async function loadSelOutcomes(ctx: RunContext, s: RuntimeStateFile): Promise<Record<string, Outcomes>> {
  const out: Record<string, Outcomes> = { ...(s.sel_outcomes ?? {}) };
  for (const hash of [s.current_score_hash, s.best_score_hash]) {
    if (!hash || out[hash] || !s.sel_cache?.[hash]) continue;
    const outcomes = await readSelOutcomes(ctx, hash);
    if (outcomes) out[hash] = outcomes;
  }
  return out;
}

async function readSelOutcomes(ctx: RunContext, hash: string): Promise<Outcomes | undefined> {
  const outcomes = await ctx.store.getJson<Outcomes>(selOutcomesKey(hash));
  if (outcomes) STORED.add(outcomes);
  return outcomes;
}

/**
 * The outcomes of a cached skill: in memory, else read back from its key (and kept until the next commit).
 * Null when the skill was cached without outcomes (a force-injected slow update, a state from before them).
 */
export async function recallSelOutcomes(ctx: RunContext, st: TrainState, hash: string): Promise<Outcomes | null> {
  const held = st.selOutcomes[hash];
  if (held) return held;
  if (!st.selCache[hash]) return null;
  const outcomes = await readSelOutcomes(ctx, hash);
  if (!outcomes) return null;
  st.selOutcomes[hash] = outcomes;
  return outcomes;
}

/**
 * Writes the commit point. Call it last, after the artefacts it refers to. Each skill's outcomes are
 * written once, under their own key, before the state: an entry is final once set (a skill's outcomes are
 * stored under its hash once and never changed). Inline, they made the state O(steps) bytes per commit
 * (≈ 10 KB per scored skill at 200 selection items: 10 MB per commit by step 1,000, O(steps²) over a run).
 */
export async function saveState(ctx: RunContext, st: TrainState): Promise<void> {
  for (const [hash, outcomes] of Object.entries(st.selOutcomes)) {
    if (!STORED.has(outcomes)) {
      await ctx.store.putJson(selOutcomesKey(hash), outcomes);
      STORED.add(outcomes);
    }
    if (hash !== st.currentRef && hash !== st.bestRef) delete st.selOutcomes[hash];
  }
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
    current_score_hash: st.currentRef,
    best_score_hash: st.bestRef,
    consecutive_rejects: st.consecutiveRejects,
    slow_update_done_epoch: st.slowDoneEpoch,
    meta_skill_done_epoch: st.metaDoneEpoch,
    stop_reason: st.stopReason,
    token_summary: st.tokens,
  };
  await ctx.store.putJson(RUNTIME_STATE_KEY, file);
}
