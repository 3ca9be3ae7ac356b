/**
 * Shared words and rules of run recovery, used by the worker, the API and the run page: when a worker
 * counts as lost, and what a run says once it has used up its automatic restarts.
 */

/** What an interrupted run at the restart limit says until the user resumes it. */
export const holdMessage = (limit: number): string =>
  `stopped after ${limit} automatic restart${limit === 1 ? "" : "s"}; press Resume`;

/** A run's owner is lost when it sent no heartbeat for longer than `staleAfterMs` (or never sent one). */
export function isStale(heartbeatAt: Date | null, staleAfterMs: number, now = Date.now()): boolean {
  return !heartbeatAt || now - heartbeatAt.getTime() > staleAfterMs;
}

/**
 * Statuses a run can be resumed from: it stopped before the end (a lost worker, a failure, the user's
 * cancel, an exhausted budget) and continues from its last committed step without re-paying a call.
 */
export const RESUMABLE_STATUSES = ["interrupted", "failed", "cancelled", "budget_exhausted"] as const;
