/**
 * What a reconcile pass does with one run, decided from its row and whether the queue holds a job for it.
 * Pure, so every case is unit-tested; worker/reconcile.ts applies the answer with conditional updates.
 */
import { holdMessage, isStale } from "../lib/contracts/run-recovery";

export interface ReconcileInput {
  run: { status: string; heartbeatAt: Date | null; autoRestarts: number; errorMessage: string | null; updatedAt: Date };
  /** The queue holds a job for the run that will still run (a job marked to fail after a stall does not count). */
  hasJob: boolean;
  now: number;
  staleAfterMs: number;
  /** A run queued this recently may still be getting its job from the process that queued it. */
  graceMs: number;
  maxAutoRestarts: number;
}

export type ReconcileAction =
  | { kind: "none"; why: string }
  /** Queued too recently to tell; look again after `retryInMs`. */
  | { kind: "wait"; retryInMs: number }
  /** Queued with no job (Redis lost it, or was down when the run was queued): give it one. */
  | { kind: "enqueue" }
  /** Its worker died and no job will take it over: mark it interrupted, then restart or hold it. */
  | { kind: "lost" }
  /** Interrupted with restarts left and no job: queue it again as an automatic restart. */
  | { kind: "restart" }
  /** Interrupted at the restart limit: record once that it waits for Resume. */
  | { kind: "hold" };

export function decideReconcile(i: ReconcileInput): ReconcileAction {
  const { run } = i;
  if (i.hasJob) return { kind: "none", why: "has a job" };
  switch (run.status) {
    case "queued": {
      const age = i.now - run.updatedAt.getTime();
      return age < i.graceMs ? { kind: "wait", retryInMs: i.graceMs - age } : { kind: "enqueue" };
    }
    case "running":
    case "cancelling":
      return isStale(run.heartbeatAt, i.staleAfterMs, i.now)
        ? { kind: "lost" }
        : { kind: "none", why: "its worker is alive" };
    case "interrupted":
      if (run.autoRestarts < i.maxAutoRestarts) return { kind: "restart" };
      return run.errorMessage === holdMessage(i.maxAutoRestarts)
        ? { kind: "none", why: "waits for Resume" }
        : { kind: "hold" };
    default:
      return { kind: "none", why: `it is ${run.status}` };
  }
}
