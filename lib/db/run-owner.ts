/**
 * The owner's fence: every write a worker makes for the run it trains (an engine event with its rows, a
 * batch of checkpoint writes) first checks, in the same transaction, that the run is still this worker's
 * and still running. A worker that stalled past the stale limit was declared lost and the run handed on;
 * when it wakes up, its queued writes must not land on top of the new owner's state.
 */
import type { RunStatus } from "./runs";
import type { DbTx } from "./client";

/** The statuses in which a worker owns a run (the watch's and the stale-run detector's view too). */
export const OWNED_STATUSES: readonly RunStatus[] = ["running", "cancelling"];

export class RunOwnershipLostError extends Error {
  constructor(
    readonly runId: string,
    readonly workerId: string,
  ) {
    super(`run ${runId} is no longer owned by worker ${workerId}: another worker took it over, or it was stopped`);
    this.name = "RunOwnershipLostError";
  }
}

/**
 * Inside a write's transaction: refreshes the owner's heartbeat (a busy worker never looks dead), or throws
 * RunOwnershipLostError when the run is no longer `workerId`'s running run, so the transaction writes nothing.
 */
export async function fenceOwner(tx: DbTx, runId: string, workerId: string): Promise<void> {
  const res = await tx.run.updateMany({ where: ownedBy(runId, workerId), data: { heartbeatAt: new Date() } });
  if (res.count !== 1) throw new RunOwnershipLostError(runId, workerId);
}

/** The run row while it is `workerId`'s running run: the fence's condition, for writes that carry it themselves. */
export const ownedBy = (runId: string, workerId: string) => ({
  id: runId,
  workerId,
  status: { in: [...OWNED_STATUSES] },
});
