/**
 * Rollout: the target runs every item of a batch with the skill. Each finished item is appended to
 * `<dir>/results.jsonl` at once, so an interrupted rollout resumes with only the missing items.
 */
import type { EvalItem } from "../../contracts/events";
import { EngineError, RunCancelledError, type RunContext } from "../context";
import { stopRunOf, type RolloutPhase } from "../ports";
import { trajectoryPreview } from "../trajectory-format";
import type { Item, Trajectory } from "../types";
import { mapPool } from "../usage";

export interface RolloutOptions {
  /** Store folder of this rollout, e.g. `steps/step_0001/rollout`. */
  dir: string;
  items: readonly Item[];
  skill: string;
  phase: RolloutPhase;
  seed: number;
  useEvalFeedback?: boolean;
  /**
   * Checked after every finished item with the rows so far: true stops the rollout (items not started are
   * skipped, those in flight aborted and not stored) and returns only the finished rows, in item order.
   */
  stopWhen?: (done: ReadonlyMap<string, Trajectory>, last?: Trajectory) => boolean;
}

export async function rolloutItems(ctx: RunContext, opts: RolloutOptions): Promise<Trajectory[]> {
  ctx.checkAbort();
  const key = `${opts.dir}/results.jsonl`;
  const stored = await ctx.store.readRows(key);
  // Rows stored by an earlier session count toward usage, so a resumed run reports the totals of an
  // uninterrupted one; rows this session already produced or counted (the same rollout read again, as the
  // slow update and the meta skill both do) do not count twice.
  const firstRead = !ctx.rolloutKeysSeen.has(key);
  ctx.rolloutKeysSeen.add(key);
  for (const r of firstRead ? stored : []) {
    if (r.promptTokens !== undefined || r.completionTokens !== undefined) {
      ctx.usage.record("rollout", { promptTokens: r.promptTokens ?? 0, completionTokens: r.completionTokens ?? 0 });
    }
  }
  const done = new Map(stored.map((r) => [r.id, r]));
  const pending = opts.items.filter((it) => !done.has(it.id));
  // Each row is stored as soon as it exists, without holding the worker slot: the next item starts at
  // once and the writes are awaited before the rollout counts as finished.
  const writes: Promise<void>[] = [];
  const stop = opts.stopWhen ? new AbortController() : null;
  const signal = stop ? AbortSignal.any([stop.signal, ...(ctx.signal ? [ctx.signal] : [])]) : ctx.signal;
  if (stop && opts.stopWhen!(done)) stop.abort();
  await mapPool(pending, ctx.cfg.env.workers, async (item) => {
    if (stop?.signal.aborted) return;
    const row = await rolloutOne(ctx, item, opts, signal);
    if (stop?.signal.aborted) return; // aborted by the stop: not an outcome of this item
    done.set(item.id, row);
    writes.push(ctx.store.appendRows(key, [row]));
    if (stop && opts.stopWhen!(done, row)) stop.abort();
  }).finally(() => Promise.allSettled(writes));
  await Promise.all(writes);
  const rows = opts.items.flatMap((it) => (done.has(it.id) ? [done.get(it.id)!] : []));
  guardSystemicFailure(rows, opts.dir);
  return rows;
}

async function rolloutOne(ctx: RunContext, item: Item, opts: RolloutOptions, signal = ctx.signal): Promise<Trajectory> {
  ctx.checkAbort();
  try {
    return await ctx.env.rollout({
      item,
      skill: opts.skill,
      client: ctx.target,
      phase: opts.phase,
      seed: opts.seed,
      useEvalFeedback: opts.useEvalFeedback ?? false,
      signal,
    });
  } catch (err) {
    if (ctx.signal?.aborted) throw new RunCancelledError();
    if (stopRunOf(err)) throw err;
    // Environments report failures as data; a throw is a bug in the env, recorded rather than fatal.
    const message = err instanceof Error ? err.message : String(err);
    return { id: item.id, hard: 0, soft: 0, status: "error", failReason: `error: ${message}`, conversation: [] };
  }
}

/**
 * A batch where no item produced an answer (every row an error, timeout or truncation) means a broken
 * backend or a token limit far too low, not a bad skill: stop the run with the most common reason.
 */
function guardSystemicFailure(rows: Trajectory[], dir: string): void {
  if (rows.length === 0 || rows.some((r) => r.status === "ok")) return;
  const counts = new Map<string, number>();
  for (const r of rows) {
    const reason = (r.failReason ?? r.status).slice(0, 300);
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  const [reason, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
  throw new EngineError(`every item of ${dir} failed to run (${n}/${rows.length}: ${reason})`);
}

/** The bounded event/dashboard view of a trajectory. */
export function toEvalItem(t: Trajectory): EvalItem {
  const item: EvalItem = { id: t.id, hard: t.hard, soft: t.soft, status: t.status };
  if (t.prediction !== undefined) item.prediction = t.prediction.slice(0, 2000);
  if (t.reference !== undefined) item.reference = t.reference.slice(0, 2000);
  if (t.failReason !== undefined) item.failReason = t.failReason.slice(0, 2000);
  if (t.taskType !== undefined) item.taskType = t.taskType;
  if (t.latencyMs !== undefined) item.latencyMs = t.latencyMs;
  if (t.promptTokens !== undefined) item.promptTokens = t.promptTokens;
  if (t.completionTokens !== undefined) item.completionTokens = t.completionTokens;
  if (t.conversation.length > 0) item.trajectory = trajectoryPreview(t);
  return item;
}
