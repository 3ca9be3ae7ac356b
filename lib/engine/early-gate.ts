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
