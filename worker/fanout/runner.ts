/**
 * The engine's RolloutRunner for `worker.fan_out`: a batch's items are written once as a spec row of the
 * run, split into chunk jobs on the rollout-chunk queue that every worker process takes from, and awaited
 * by polling the stored results (rows, not job events, are the truth: a result stored by a worker that
 * died afterwards still counts). Rows come back in item order; a resumed batch re-adds only the chunks
 * with items not stored yet.
 */
import type { Queue } from "bullmq";
import type { RunConfig } from "../../lib/contracts/run-config";
import { listFanOutItemIds, listFanOutResults } from "../../lib/db/fanout-results";
import {
  RunCancelledError,
  type CheckpointStore,
  type RolloutBatch,
  type RolloutRunner,
  type Trajectory,
} from "../../lib/engine";
import { BudgetExhaustedError } from "../../lib/backends/policy/budget";
import { BUDGET_PAUSE_MARK, type RolloutChunkPayload } from "../../lib/queue/contracts";
import { addChunkJob, chunkFailure, chunkJobLive, dropWaitingChunk, fanOutSpecOf } from "../../lib/queue/fanout";

/** What a chunk job reads: the batch as the parent saw it. */
export interface FanOutSpec {
  items: RolloutBatch["items"];
  skill: string;
  phase: RolloutBatch["phase"];
  seed: number;
  useEvalFeedback: boolean;
}

export const specKey = (dir: string, spec: string): string => `${dir}/fanout/${spec}.json`;

/** Items per chunk job: `worker.fan_out_chunk`, or one round of the run's exec slots. */
export const chunkSizeOf = (config: RunConfig): number => config.worker.fan_out_chunk || config.worker.exec_slots;

export interface FanOutRunnerOptions {
  runId: string;
  config: RunConfig;
  /** The run's checkpoint store (the spec row is kept there). */
  store: CheckpointStore;
  queue?: Queue;
  /** How often stored results are counted while waiting. */
  pollMs?: number;
  /** How often the chunk jobs are checked for failure or loss. */
  checkMs?: number;
}

/** Waits `ms`, or less when `signal` aborts; the abort listener is removed either way (polls are many). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

export function createFanOutRunner(opts: FanOutRunnerOptions): RolloutRunner {
  const pollMs = opts.pollMs ?? 100;
  const checkMs = opts.checkMs ?? 1_000;
  return {
    async run(batch: RolloutBatch): Promise<Trajectory[]> {
      const ids = batch.items.map((it) => it.id);
      const spec = fanOutSpecOf(ids);
      const key = specKey(batch.dir, spec);
      if ((await opts.store.getJson(key)) === undefined) {
        const value: FanOutSpec = {
          items: batch.items,
          skill: batch.skill,
          phase: batch.phase,
          seed: batch.seed,
          useEvalFeedback: batch.useEvalFeedback,
        };
        await opts.store.putJson(key, value);
      }
      // Other workers read the spec from the database: it lands before any chunk job is added.
      await opts.store.flush?.();
      const size = chunkSizeOf(opts.config);
      const chunks: { payload: RolloutChunkPayload; ids: string[] }[] = [];
      for (let c = 0; c * size < ids.length; c++)
        chunks.push({
          payload: { runId: opts.runId, dir: batch.dir, spec, chunk: c },
          ids: ids.slice(c * size, (c + 1) * size),
        });
      const where = { runId: opts.runId, key: batch.dir, itemIds: ids };
      let stored = await listFanOutItemIds(where);
      const open = () => chunks.filter((c) => c.ids.some((id) => !stored.has(id)));
      for (const c of open()) await addChunkJob(c.payload, opts.queue);
      let lastCheck = Date.now();
      while (stored.size < ids.length) {
        if (batch.signal?.aborted) {
          await Promise.allSettled(open().map((c) => dropWaitingChunk(c.payload, opts.queue)));
          throw new RunCancelledError();
        }
        await sleep(pollMs, batch.signal);
        stored = await listFanOutItemIds(where);
        if (Date.now() - lastCheck < checkMs) continue;
        lastCheck = Date.now();
        try {
          await checkChunks(open(), batch.dir, opts.queue);
        } catch (err) {
          // A spent budget pauses the run: the chunks not started yet stay unpaid for until it resumes.
          if (err instanceof BudgetExhaustedError)
            await Promise.allSettled(open().map((c) => dropWaitingChunk(c.payload, opts.queue)));
          throw err;
        }
      }
      const rows = await listFanOutResults(where);
      return ids.map((id) => rows.get(id)!);
    },
  };
}

/** A chunk whose job failed for good fails the batch; one whose job is gone (Redis lost it) is added again. */
async function checkChunks(
  open: { payload: RolloutChunkPayload }[],
  dir: string,
  queue: Queue | undefined,
): Promise<void> {
  for (const c of open) {
    const failure = await chunkFailure(c.payload, queue);
    if (failure?.startsWith(BUDGET_PAUSE_MARK)) throw new BudgetExhaustedError(failure.slice(BUDGET_PAUSE_MARK.length));
    if (failure !== null) throw new Error(`rollout chunk ${c.payload.chunk} of ${dir} failed: ${failure}`);
    if (!(await chunkJobLive(c.payload, queue))) await addChunkJob(c.payload, queue);
  }
}
