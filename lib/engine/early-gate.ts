/**
 * Wires the early gate decision (lib/engine/early-decision.ts) into the selection rollout: when it
 * applies, and the stop test the rollout runs after every finished item.
 */
import type { RunContext } from "./context";
import { candidateUpperBound, rejectIsCertain, type ItemHard } from "./early-decision";
import { outcomesOf } from "./outcomes";
import type { TrainState } from "./state";
import type { Item, Trajectory } from "./types";

export interface EarlyStop {
  /** `last`: the row just finished (the others were seen before); without it every row is read. */
  stopWhen: (done: ReadonlyMap<string, Trajectory>, last?: Trajectory) => boolean;
  upperBound: (rows: readonly Trajectory[]) => number;
}

/**
 * The stop test for scoring a step's candidate against the current skill, or null when an early decision
 * cannot be exact: off, another gate metric, ungated, the density bonus on, or the current skill's
 * per-item outcomes not known for every selection item.
 */
export function earlyStopFor(ctx: RunContext, st: TrainState, items: readonly Item[]): EarlyStop | null {
  const ev = ctx.cfg.evaluation;
  if (!ev.early_decision || ev.gate_metric !== "hard" || !ev.use_gate || ev.use_semantic_density) return null;
  const theirs = st.currentRef === null ? undefined : st.selOutcomes[st.currentRef];
  if (!theirs || st.currentScore === null) return null;
  const incumbent: ItemHard[] = [];
  for (const it of items) {
    const o = theirs[it.id];
    if (o === undefined) return null;
    incumbent.push(Array.isArray(o) ? o[0] : null);
  }
  const incumbentScore = st.currentScore;
  const index = new Map(items.map((it, i) => [it.id, i]));
  const hardOf = (rows: readonly Trajectory[]) => {
    const out = outcomesOf(rows);
    return Object.entries(out).map(([id, o]) => [index.get(id), Array.isArray(o) ? o[0] : null] as const);
  };
  const candidate: Array<ItemHard | undefined> = items.map(() => undefined);
  return {
    stopWhen: (done, last) => {
      for (const [i, h] of hardOf(last ? [last] : [...done.values()])) if (i !== undefined) candidate[i] = h;
      return rejectIsCertain({ incumbent, incumbentScore, candidate, maxErrorShare: ev.max_error_share });
    },
    upperBound: (rows) => {
      const c: Array<ItemHard | undefined> = items.map(() => undefined);
      for (const [i, h] of hardOf(rows)) if (i !== undefined) c[i] = h;
      return candidateUpperBound(c);
    },
  };
}

/**
 * Early rejects of this session, per run state: skill hash → the current skill's hash and the bound when
 * it was rejected. The same candidate against the same current skill is certain to be rejected again (the
 * full evaluation would reuse its cached score the same way), so it is not scored again. Not persisted: a
 * resumed run scores such a candidate afresh and reaches the same decision.
 */
const EARLY_REJECTS = new WeakMap<TrainState, Map<string, { against: string; upperBound: number }>>();

export function rememberEarlyReject(st: TrainState, hash: string, upperBound: number): void {
  if (st.currentRef === null) return;
  let m = EARLY_REJECTS.get(st);
  if (!m) EARLY_REJECTS.set(st, (m = new Map()));
  m.set(hash, { against: st.currentRef, upperBound });
}

/** The bound of an earlier early reject of `hash` against the same current skill, or null. */
export function earlierEarlyReject(st: TrainState, hash: string): number | null {
  const hit = EARLY_REJECTS.get(st)?.get(hash);
  return hit && hit.against === st.currentRef ? hit.upperBound : null;
}
