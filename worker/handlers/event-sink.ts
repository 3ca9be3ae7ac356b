/**
 * The engine's EventSink in the worker: each event is stored with its rows in one transaction, then a
 * wake-up notice goes out on Redis pub/sub so connected browsers read the new rows at once.
 */
import { costOf, PRICE_TABLE, type PriceTable } from "../../lib/backends/pricing";
import type { EngineEvent } from "../../lib/contracts/events";
import { getDb } from "../../lib/db/client";
import { persistEngineEvent } from "../../lib/db/engine-events";
import { addLlmUsage } from "../../lib/db/llm-usage";
import type { UsageFlusher } from "../../lib/runs/usage-flusher";
import { skillHash, type EventSink } from "../../lib/engine";
import type { HandlerContext } from "./context";

const STEP_EVENTS: ReadonlySet<string> = new Set([
  "stepStarted", "rolloutCompleted", "patchesProposed", "patchesMerged", "editsSelected", "candidateBuilt", "candidateScored", "gateDecided", "stepCommitted",
]);

/**
 * `committedSteps` is the run's stepsDone at claim time: a resumed engine may replay the events of a step
 * whose commit was stored just before a crash; those are skipped, so no step appears twice.
 */
export function createEventSink(
  runId: string,
  committedSteps: number,
  ctx: HandlerContext,
  roles: Parameters<typeof costOf>[1],
  /** The run's price table (built-in entries plus its `model.price_table`). */
  prices: PriceTable = PRICE_TABLE,
  /** Backend counters (latency, errors, retries, cache hits) flushed at each commit. */
  usage?: UsageFlusher,
): EventSink & { flushUsage(): Promise<void> } {
  const flushUsage = async () => {
    if (usage) await addLlmUsage(runId, usage.take());
  };
  return {
    flushUsage,
    async emit(e: EngineEvent) {
      if (STEP_EVENTS.has(e.type) && "step" in e && typeof e.step === "number" && e.step <= committedSteps) return;
      const seq = await persistEngineEvent(runId, e, skillHash);
      if (e.type === "stepCommitted") {
        await getDb().run.update({ where: { id: runId }, data: { costUsd: costOf(e.tokens, roles, prices) } });
      }
      if (COMMITS.has(e.type)) await flushUsage();
      ctx.publish(runId, seq);
    },
  };
}

/** Events after which the backend counters are written. */
const COMMITS: ReadonlySet<string> = new Set(["baselineScored", "stepCommitted", "slowUpdateApplied", "metaSkillUpdated", "runCompleted"]);
