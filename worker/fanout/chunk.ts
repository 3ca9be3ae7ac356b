/**
 * One rollout chunk job (`worker.fan_out`), on whichever worker took it: read the batch spec the parent
 * stored, skip the items already stored (by any worker, in any earlier attempt), run the rest through the
 * run's environment and target in this process's slots for the run (`worker.exec_slots`, shared by the
 * process's chunks of the run), and store each row the moment it exists. A
 * worker killed mid-chunk loses only the items in flight; the job goes back to the queue and the next
 * worker runs just those. Each item's calls are stored with its row (see item-usage.ts), so the run's
 * usage rows count every call of every worker.
 */
import { createHash } from "node:crypto";
import { UnrecoverableError } from "bullmq";
import type { RunConfig } from "../../lib/contracts/run-config";
import { DbCheckpointStore } from "../../lib/db/checkpoint-store";
import { createFanOutResult, listFanOutItemIds } from "../../lib/db/fanout-results";
import { addLlmUsage } from "../../lib/db/llm-usage";
import { findRun, runConfigOf } from "../../lib/db/runs";
import { mapPool, rolloutOrErrorRow, stopRunOf, type Environment, type ModelClient } from "../../lib/engine";
import { BUDGET_PAUSE_MARK, type RolloutChunkPayload } from "../../lib/queue/contracts";
import type { BudgetLimits, RunBudget, Spent } from "../../lib/backends/policy/budget";
import { sharedBudgetOf } from "../../lib/backends/policy/shared-budget";
import { UsageLedger } from "../../lib/backends/policy/stats";
import { prepareRun } from "../../lib/runs/prepare";
import { ensureRunPackages } from "../../lib/runs/system-packages";
import type { Logger } from "../logger";
import { ItemUsage, usageOf } from "./item-usage";
import { slotsFor } from "./slots";
import { chunkSizeOf, specKey, type FanOutSpec } from "./runner";

export interface ChunkContext {
  workerId: string;
  rootDir: string;
  log: Logger;
  /** Aborted when the worker shuts down: items in flight stop unstored and the job runs again elsewhere. */
  shutdown: AbortSignal;
  /**
   * The run's environment, target client and the usage ledger its calls are counted in (tests pass
   * fakes); defaults to the run's stored config.
   */
  prepare?: (runId: string, config: RunConfig, seedSkill: string) => Prepared;
  /** The run's shared budget (tests pass one on their own Redis); defaults to the worker's store. */
  budget?: (runId: string, limits: BudgetLimits, spent: Spent) => RunBudget;
}

const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));

type Prepared = { env: Environment; target: ModelClient; ledger?: UsageLedger };
type Ready = { env: Environment; target: ModelClient; usage: ItemUsage | null };

/** Environments and clients per run and config: a worker building them for every chunk would reload the splits. */
const prepared = new Map<string, Promise<Ready>>();
const readyOf = (p: Prepared): Ready => ({
  env: p.env,
  target: p.target,
  usage: p.ledger ? new ItemUsage(p.ledger) : null,
});
const MAX_PREPARED = 4;

function preparedFor(
  ctx: ChunkContext,
  row: { id: string; seedSkill: string; calls: number; costUsd: number | null },
  config: RunConfig,
) {
  const { id: runId, seedSkill } = row;
  const spent = { usd: row.costUsd ?? 0, calls: row.calls };
  if (ctx.prepare) return Promise.resolve(readyOf(ctx.prepare(runId, config, seedSkill)));
  const id = `${runId}:${createHash("sha256").update(JSON.stringify(config)).digest("hex")}`;
  let p = prepared.get(id);
  if (!p) {
    p = (async () => {
      // This machine may not be the one the run started on: it needs the benchmark's packages too.
      await ensureRunPackages(config, {
        install: true,
        env: process.env,
        say: (m) => ctx.log.info(`[run ${runId}] ${m}`),
      });
      const run = prepareRun({
        config,
        rootDir: ctx.rootDir,
        skillText: seedSkill,
        env: process.env,
        trust: "request",
        // The run's calls here spend from the budget every worker of the run shares.
        policy: {
          budget: (ctx.budget ?? sharedBudgetOf)(runId, config.budget, spent),
        },
      });
      return readyOf({ env: run.env, target: run.target, ledger: run.policy.ledger });
    })();
    p.catch(() => prepared.delete(id));
    prepared.set(id, p);
    if (prepared.size > MAX_PREPARED) prepared.delete(prepared.keys().next().value!);
  }
  return p;
}

/** Batch specs by run and key: a spec row is written once and never changes, and every chunk of it reads it. */
const specs = new Map<string, FanOutSpec>();
const MAX_SPECS = 32;

async function specFor(p: RolloutChunkPayload): Promise<FanOutSpec | undefined> {
  const id = `${p.runId}:${specKey(p.dir, p.spec)}`;
  const hit = specs.get(id);
  if (hit) return hit;
  const spec = await new DbCheckpointStore(p.runId).getJson<FanOutSpec>(specKey(p.dir, p.spec));
  if (spec) {
    specs.set(id, spec);
    if (specs.size > MAX_SPECS) specs.delete(specs.keys().next().value!);
  }
  return spec;
}

/** Runs the chunk; resolves to how many items this job ran (the others were stored already). */
export async function handleRolloutChunk(p: RolloutChunkPayload, ctx: ChunkContext): Promise<number> {
  const run = await findRun(p.runId);
  if (!run) throw new UnrecoverableError(`rollout chunk for unknown run ${p.runId}`);
  const config = runConfigOf(run);
  const spec = await specFor(p);
  if (!spec) throw new UnrecoverableError(`rollout chunk ${p.chunk} of ${p.dir}: no batch spec ${p.spec} stored`);
  const size = chunkSizeOf(config);
  const items = spec.items.slice(p.chunk * size, (p.chunk + 1) * size);
  if (items.length === 0) throw new UnrecoverableError(`rollout chunk ${p.chunk} of ${p.dir}: no such chunk`);
  const done = await listFanOutItemIds({ runId: p.runId, key: p.dir, itemIds: items.map((it) => it.id) });
  const pending = items.filter((it) => !done.has(it.id));
  if (pending.length === 0) return 0;
  const { env, target, usage } = await preparedFor(ctx, run, config);
  const slots = slotsFor(p.runId, config.worker.exec_slots);
  await mapPool(pending, config.worker.exec_slots, async (item) => {
    // This item's calls alone (the process's other items share the client).
    const own = new UsageLedger();
    const counted = <T>(fn: () => Promise<T>) => (usage ? usage.within(own, fn) : fn());
    const row = await slots
      .run(() =>
        counted(() =>
          rolloutOrErrorRow(
            env,
            {
              item,
              skill: spec.skill,
              phase: spec.phase,
              seed: spec.seed,
              useEvalFeedback: spec.useEvalFeedback,
              client: target,
              signal: ctx.shutdown,
            },
            () => ctx.shutdown.aborted,
          ),
        ),
      )
      .catch(async (err: unknown) => {
        // No row for this item, but the calls it made were made (and counted by the shared budget).
        await addLlmUsage(p.runId, usageOf(own)).catch((e: unknown) =>
          ctx.log.warn(`[run ${p.runId}] usage of item ${item.id} not stored: ${errorMessage(e)}`),
        );
        // A model error that ends the run (bad key, spent budget) must not be retried by the queue; a spent
        // budget is marked so the run's owner pauses the run (resumable) instead of failing it.
        const stop = stopRunOf(err);
        if (stop) throw new UnrecoverableError(`${stop === "pause" ? BUDGET_PAUSE_MARK : ""}${errorMessage(err)}`);
        throw err;
      });
    await createFanOutResult({ runId: p.runId, key: p.dir, row, workerId: ctx.workerId, usage: usageOf(own) });
  });
  return pending.length;
}
