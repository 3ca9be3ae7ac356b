/**
 * Rollout: the target runs every item of a batch with the skill. Each finished item is appended to
 * `<dir>/results.jsonl` at once, so an interrupted rollout resumes with only the missing items.
 */
import type { EvalItem } from "../../contracts/events";
import { EngineError, RunCancelledError, type RunContext } from "../context";
import { stopRunOf, type Environment, type RolloutInput, type RolloutPhase } from "../ports";
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
  if (firstRead) countRowUsage(ctx, stored);
  const done = new Map(stored.map((r) => [r.id, r]));
  const pending = opts.items.filter((it) => !done.has(it.id));
  if (ctx.rollouts && !opts.stopWhen && pending.length > 0) {
    // An early-stopped evaluation depends on which items finish first: it always runs in this process.
    for (const row of await runElsewhere(ctx, opts, pending, key)) done.set(row.id, row);
  } else {
    await rolloutHere(ctx, { opts, pending, done, key });
  }
  const rows = opts.items.flatMap((it) => (done.has(it.id) ? [done.get(it.id)!] : []));
  guardSystemicFailure(rows, opts.dir);
  return rows;
}

/** Counts the tokens of rows whose calls the tracked target client did not see (stored or run elsewhere). */
function countRowUsage(ctx: RunContext, rows: readonly Trajectory[]): void {
  for (const r of rows) {
    if (r.promptTokens !== undefined || r.completionTokens !== undefined)
      ctx.usage.record("rollout", { promptTokens: r.promptTokens ?? 0, completionTokens: r.completionTokens ?? 0 });
    countJudgeUsage(ctx, r);
  }
}

/** A benchmark's grading calls (no tracked client sees them): counted from the row, in every path. */
function countJudgeUsage(ctx: RunContext, row: Trajectory): void {
  if (row.judgeUsage && row.judgeUsage.calls > 0) ctx.usage.record("judge", row.judgeUsage, row.judgeUsage.calls);
}

async function rolloutHere(
  ctx: RunContext,
  a: { opts: RolloutOptions; pending: Item[]; done: Map<string, Trajectory>; key: string },
): Promise<void> {
  const { opts, done } = a;
  // Each row is stored as soon as it exists, without holding the worker slot: the next item starts at
  // once and the writes are awaited before the rollout counts as finished.
  const writes: Promise<void>[] = [];
  const stop = opts.stopWhen ? new AbortController() : null;
  const signal = stop ? AbortSignal.any([stop.signal, ...(ctx.signal ? [ctx.signal] : [])]) : ctx.signal;
  if (stop && opts.stopWhen!(done)) stop.abort();
  await mapPool(a.pending, ctx.cfg.env.workers, async (item) => {
    if (stop?.signal.aborted) return;
    const row = await rolloutOne(ctx, item, opts, signal);
    if (stop?.signal.aborted) return; // aborted by the stop: not an outcome of this item
    countJudgeUsage(ctx, row);
    done.set(item.id, row);
    const write = ctx.store.appendRows(a.key, [row]);
    // Handled here so a failure while later items still run is not an unhandled rejection; the
    // Promise.all below still fails the rollout with it.
    write.catch(() => undefined);
    writes.push(write);
    if (stop && opts.stopWhen!(done, row)) stop.abort();
  }).finally(() => Promise.allSettled(writes));
  await Promise.all(writes);
}

/**
 * The pending items through the injected runner: one row per item is required; the rows are counted
 * (their calls were made elsewhere) and stored in item order, whatever order they finished in.
 */
async function runElsewhere(
  ctx: RunContext,
  opts: RolloutOptions,
  pending: Item[],
  key: string,
): Promise<Trajectory[]> {
  const got = await ctx.rollouts!.run({
    dir: opts.dir,
    items: pending,
    skill: opts.skill,
    phase: opts.phase,
    seed: opts.seed,
    useEvalFeedback: opts.useEvalFeedback ?? false,
    signal: ctx.signal,
  });
  ctx.checkAbort();
  const byId = new Map(got.map((r) => [r.id, r]));
  const missing = pending.filter((it) => !byId.has(it.id));
  if (missing.length > 0 || byId.size !== got.length || got.length !== pending.length)
    throw new EngineError(
      `the rollout runner returned ${got.length} rows for ${pending.length} items of ${opts.dir}` +
        (missing.length > 0 ? ` (missing ${missing[0]!.id})` : ""),
    );
  const rows = pending.map((it) => byId.get(it.id)!);
  countRowUsage(ctx, rows);
  await ctx.store.appendRows(key, rows);
  return rows;
}

async function rolloutOne(ctx: RunContext, item: Item, opts: RolloutOptions, signal = ctx.signal): Promise<Trajectory> {
  ctx.checkAbort();
  const input = {
    item,
    skill: opts.skill,
    client: ctx.target,
    phase: opts.phase,
    seed: opts.seed,
    useEvalFeedback: opts.useEvalFeedback ?? false,
    signal,
  };
  return rolloutOrErrorRow(ctx.env, input, () => ctx.signal?.aborted === true);
}

/**
 * One item through the environment. A throw from the env becomes an error row (a bug in the env is
 * recorded rather than fatal) unless the run was cancelled (`cancelled()`) or the error stops the run.
 * The fan-out's child jobs run items through this too, so both paths record the same rows.
 */
export async function rolloutOrErrorRow(
  env: Environment,
  input: RolloutInput,
  cancelled: () => boolean,
): Promise<Trajectory> {
  try {
    return await env.rollout(input);
  } catch (err) {
    if (cancelled()) throw new RunCancelledError();
    if (stopRunOf(err)) throw err;
    const message = err instanceof Error ? err.message : String(err);
    return { id: input.item.id, hard: 0, soft: 0, status: "error", failReason: `error: ${message}`, conversation: [] };
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
