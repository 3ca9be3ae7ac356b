/**
 * TanStack Query keys, in one place so the SSE hook and the pages agree on what to update.
 * `["run", id]` is the RunDetail; invalidate it with `exact: true` so step details are not swept along.
 */
import { runsQueryString, type RunsView } from "./runs/runs-view";

export const queryKeys = {
  runs: (view: RunsView) => ["runs", runsQueryString(view, { forApi: true })] as const,
  runsAll: ["runs"] as const,
  run: (id: string) => ["run", id] as const,
  step: (id: string, step: number) => ["run", id, "step", step] as const,
  dataset: (id: string) => ["run", id, "dataset"] as const,
  evals: (id: string, step: number, label: string) => ["run", id, "evals", step, label] as const,
  /** Client-only: frames received over SSE for one run (written by useRunEvents, never fetched). */
  runEvents: (id: string) => ["run-events", id] as const,
  presets: ["presets"] as const,
  backends: ["backends"] as const,
  compare: (ids: string[]) => ["compare", ids.join(",")] as const,
  bestSkill: (id: string) => ["run", id, "best-skill"] as const,
};

/** Statuses in which a run still changes on its own. */
export const ACTIVE_STATUSES: readonly string[] = ["queued", "running", "cancelling"];

export function isActiveStatus(status: string | undefined): boolean {
  return status !== undefined && ACTIVE_STATUSES.includes(status);
}
