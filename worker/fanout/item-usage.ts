/**
 * Each fan-out item's own usage: the items of a run that a worker process runs at once share one target
 * client and so one usage ledger, yet each item's calls must be stored with that item's result row (they
 * count exactly when the row is stored, so a chunk job run again after its worker died counts nothing
 * twice). Every record of the shared ledger made inside `within(own, …)` — the call's async context — is
 * copied to `own` as well.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { UsageLedger, UsageRecord } from "../../lib/backends/policy/stats";
import type { UsageDelta } from "../../lib/db/llm-usage";
import { UsageFlusher } from "../../lib/runs/usage-flusher";

function copyInto(own: UsageLedger, r: UsageRecord): void {
  if (own.statsOf(r.role) === null) own.register(r.role, r.backend, r.model, r.priceKnown);
  own.record(r.role, r.stage, r.delta);
}

export class ItemUsage {
  private readonly scope = new AsyncLocalStorage<UsageLedger>();

  /** Listens to `shared` for the life of the process's prepared run (one listener per ledger). */
  constructor(shared: UsageLedger) {
    shared.onRecord((r) => {
      const own = this.scope.getStore();
      if (own) copyInto(own, r);
    });
  }

  /** Runs `fn` so that the shared ledger's records made by it are also in `own`. */
  within<T>(own: UsageLedger, fn: () => Promise<T>): Promise<T> {
    return this.scope.run(own, fn);
  }
}

/** Everything `own` counted, as increments for `addLlmUsage` (rows with nothing in them left out). */
export const usageOf = (own: UsageLedger): UsageDelta[] => new UsageFlusher(() => own.snapshot()).take();
