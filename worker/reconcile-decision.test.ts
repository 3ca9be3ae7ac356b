import { describe, expect, it } from "vitest";
import { holdMessage } from "../lib/contracts/run-recovery";
import { decideReconcile, type ReconcileInput } from "./reconcile-decision";

const NOW = 1_000_000_000;
const base: ReconcileInput = {
  run: { status: "queued", heartbeatAt: null, autoRestarts: 0, errorMessage: null, updatedAt: new Date(NOW - 60_000) },
  hasJob: false,
  now: NOW,
  staleAfterMs: 45_000,
  graceMs: 5_000,
  maxAutoRestarts: 3,
};
const decide = (run: Partial<ReconcileInput["run"]>, rest: Partial<ReconcileInput> = {}) =>
  decideReconcile({ ...base, ...rest, run: { ...base.run, ...run } });

describe("decideReconcile", () => {
  it("leaves every run that has a job alone, whatever its state", () => {
    for (const status of ["queued", "running", "cancelling", "interrupted"]) {
      expect(decide({ status, heartbeatAt: null }, { hasJob: true })).toEqual({ kind: "none", why: "has a job" });
    }
  });

  it("gives a queued run without a job a new one, once it is past the grace period", () => {
    expect(decide({ status: "queued" })).toEqual({ kind: "enqueue" });
    expect(decide({ status: "queued", updatedAt: new Date(NOW - 2_000) })).toEqual({ kind: "wait", retryInMs: 3_000 });
  });

  it("treats a running or cancelling run with a stale heartbeat and no job as lost, never one whose worker is alive", () => {
    expect(decide({ status: "running", heartbeatAt: new Date(NOW - 46_000) })).toEqual({ kind: "lost" });
    expect(decide({ status: "cancelling", heartbeatAt: null })).toEqual({ kind: "lost" });
    expect(decide({ status: "running", heartbeatAt: new Date(NOW - 10_000) })).toMatchObject({ kind: "none" });
  });

  it("restarts an interrupted run under the limit and holds it at the limit, recording the hold once", () => {
    expect(decide({ status: "interrupted", autoRestarts: 2 })).toEqual({ kind: "restart" });
    expect(decide({ status: "interrupted", autoRestarts: 3 })).toEqual({ kind: "hold" });
    expect(decide({ status: "interrupted", autoRestarts: 3, errorMessage: holdMessage(3) })).toEqual({
      kind: "none",
      why: "waits for Resume",
    });
    expect(decide({ status: "interrupted", autoRestarts: 0 }, { maxAutoRestarts: 0 })).toEqual({ kind: "hold" });
  });

  it("never touches finished, failed, cancelled or budget-exhausted runs", () => {
    for (const status of ["succeeded", "failed", "cancelled", "budget_exhausted"]) {
      expect(decide({ status, heartbeatAt: null })).toMatchObject({ kind: "none" });
    }
  });
});
