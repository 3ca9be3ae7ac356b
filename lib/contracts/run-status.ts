/**
 * A run's lifecycle statuses: one list for the database layer, the runs API's status filter and the
 * dashboard's filter menu and badges.
 */
export const RUN_STATUSES = [
  "queued",
  "running",
  "cancelling",
  "cancelled",
  "succeeded",
  "failed",
  "interrupted",
  "budget_exhausted",
  /** Human review at the gate: stopped until a reviewer decides (lib/db/gate-reviews.ts). */
  "awaiting_review",
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
