/**
 * Rows that are not answers (error, timeout, truncated) are never scored. Means are taken over the
 * answered rows, and two skills are compared over the items both answered, with the unanswered ones
 * counted apart. With every row answered each function gives exactly what a plain mean over all rows
 * gives, so error-free runs are unchanged.
 */
import { computeScore } from "./scoring";
import type { Score, Trajectory, TrajectoryStatus } from "./types";

/** What the selection cache keeps of one item: its (hard, soft) when answered, else why it was not. */
export type ItemOutcome = [hard: number, soft: number] | Exclude<TrajectoryStatus, "ok">;

/** Per-item outcomes of one skill on the selection items, by item id (in item order). */
export type Outcomes = Record<string, ItemOutcome>;

export interface StatusCounts {
  nErrors: number;
  nTimeouts: number;
  nTruncated: number;
}

export const NO_FAILURES: Readonly<StatusCounts> = Object.freeze({ nErrors: 0, nTimeouts: 0, nTruncated: 0 });

export const isAnswered = (r: { status: TrajectoryStatus }): boolean => r.status === "ok";

/** Mean (hard, soft) over the answered rows; (0, 0) when none was answered. */
export function answeredScore(rows: readonly Trajectory[]): Score {
  return computeScore(rows.filter(isAnswered));
}

function bump(c: StatusCounts, status: Exclude<TrajectoryStatus, "ok">): void {
  if (status === "error") c.nErrors++;
  else if (status === "timeout") c.nTimeouts++;
  else c.nTruncated++;
}

/** How many rows (or cached outcomes) were errors, timeouts and truncations. */
export function statusCounts(rows: readonly Trajectory[] | Outcomes): StatusCounts {
  const c = { ...NO_FAILURES };
  const statuses = Array.isArray(rows)
    ? rows.map((r) => r.status)
    : Object.values(rows as Outcomes).map((o) => (Array.isArray(o) ? "ok" : o));
  for (const s of statuses) if (s !== "ok") bump(c, s);
  return c;
}

export const unansweredOf = (c: StatusCounts): number => c.nErrors + c.nTimeouts + c.nTruncated;

export function outcomesOf(rows: readonly Trajectory[]): Outcomes {
  const out: Outcomes = {};
  for (const r of rows) {
    if (r.status !== "ok") out[r.id] = r.status;
    else {
      const s = computeScore([r]);
      out[r.id] = [s.hard, s.soft];
    }
  }
  return out;
}

export interface PairedScores {
  /** Items of `a` (the selection items). */
  nItems: number;
  /** Items both sides answered: the only ones either score is taken over. */
  nPaired: number;
  /** Items left out, each counted once by the first side's reason, else the second's. */
  excluded: StatusCounts;
  a: Score;
  b: Score;
  /** Every item answered on both sides: the plain means apply unchanged. */
  complete: boolean;
}

/** Compares two skills' outcomes on the items both answered (an item missing from `b` is left out). */
export function pairOutcomes(a: Outcomes, b: Outcomes): PairedScores {
  const excluded = { ...NO_FAILURES };
  const sa = { hard: 0, soft: 0 };
  const sb = { hard: 0, soft: 0 };
  let nItems = 0;
  let nPaired = 0;
  for (const [id, oa] of Object.entries(a)) {
    nItems++;
    const ob = b[id];
    if (!Array.isArray(oa)) bump(excluded, oa);
    else if (ob !== undefined && !Array.isArray(ob)) bump(excluded, ob);
    if (!Array.isArray(oa) || !Array.isArray(ob)) continue;
    nPaired++;
    sa.hard += oa[0];
    sa.soft += oa[1];
    sb.hard += ob[0];
    sb.soft += ob[1];
  }
  const mean = (s: Score): Score =>
    nPaired === 0 ? { hard: 0, soft: 0 } : { hard: s.hard / nPaired, soft: s.soft / nPaired };
  const complete = nPaired === nItems && Object.keys(b).length === nItems;
  return { nItems, nPaired, excluded, a: mean(sa), b: mean(sb), complete };
}
