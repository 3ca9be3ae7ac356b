/**
 * The budget of a fanned-out run (`worker.fan_out`), shared by every worker that makes its calls: the run
 * owner's optimizer calls and the rollout chunks other workers execute reserve and settle against one
 * Redis hash per run (`skillopt:budget:<runId>`: calls and USD spent, calls and USD reserved), through Lua
 * scripts so a check and its reservation are one atomic step. A fanned-out run therefore pauses at the
 * same count as the same run in one process: a call is refused once spent + reserved + 1 would pass
 * `budget.max_calls` (or the worst-case cost would pass `budget.max_usd`), after waiting for in-flight
 * calls anywhere to settle.
 *
 * The hash outlives a session (30 days since its last write), so a resumed run keeps counting every call
 * of every worker exactly once; it is created from the database's totals (`spent`) only when absent (a
 * new run, or a Redis that lost it). The owner clears the reservations when a session starts: they
 * belonged to calls of the session that ended.
 */
import type { Redis } from "ioredis";
import {
  BudgetExhaustedError,
  refusalOf,
  type BudgetLimits,
  type Reservation,
  type RunBudget,
  type Spent,
} from "./budget";

const TTL_S = 30 * 24 * 3600;
/** How often a refused reservation looks again while calls elsewhere are in flight. */
const WAIT_MS = 50;

let sharedRedis: Redis | null = null;

/** Makes `sharedBudgetOf` available (the worker passes its connection); null: fanned-out runs cannot start. */
export function useSharedBudgetStore(redis: Redis | null): void {
  sharedRedis = redis;
}

export const budgetKey = (runId: string): string => `skillopt:budget:${runId}`;

// KEYS[1] hash; ARGV: initCalls, initUsd, ttl, then per script.
const INIT = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'calls', ARGV[1], 'usd', ARGV[2], 'rcalls', 0, 'rusd', 0)
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
`;
/** ARGV[4] estimate, ARGV[5] max calls (-1: none), ARGV[6] max USD (-1: none). Returns {ok, calls, usd, rcalls}. */
const RESERVE = `${INIT}
local calls = tonumber(redis.call('HGET', KEYS[1], 'calls'))
local usd = tonumber(redis.call('HGET', KEYS[1], 'usd'))
local rcalls = tonumber(redis.call('HGET', KEYS[1], 'rcalls'))
local rusd = tonumber(redis.call('HGET', KEYS[1], 'rusd'))
local est = tonumber(ARGV[4])
local maxCalls = tonumber(ARGV[5])
local maxUsd = tonumber(ARGV[6])
local fits = true
if maxCalls >= 0 and calls + rcalls + 1 > maxCalls then fits = false end
if maxUsd >= 0 and usd + rusd + est > maxUsd + 1e-12 then fits = false end
if fits then
  redis.call('HINCRBY', KEYS[1], 'rcalls', 1)
  redis.call('HINCRBYFLOAT', KEYS[1], 'rusd', est)
  return {1, tostring(calls), tostring(usd), tostring(rcalls + 1)}
end
return {0, tostring(calls), tostring(usd), tostring(rcalls)}
`;
/** ARGV[4] reserved estimate, ARGV[5] calls to add (1 settle, 0 release), ARGV[6] USD to add. */
const END = `${INIT}
local rcalls = tonumber(redis.call('HGET', KEYS[1], 'rcalls')) - 1
local rusd = tonumber(redis.call('HGET', KEYS[1], 'rusd')) - tonumber(ARGV[4])
if rcalls < 0 then rcalls = 0 end
if rusd < 1e-12 or rcalls == 0 then rusd = 0 end
redis.call('HSET', KEYS[1], 'rcalls', rcalls, 'rusd', rusd)
redis.call('HINCRBY', KEYS[1], 'calls', ARGV[5])
redis.call('HINCRBYFLOAT', KEYS[1], 'usd', ARGV[6])
return 1
`;
const CLEAR = `${INIT}
redis.call('HSET', KEYS[1], 'rcalls', 0, 'rusd', 0)
return 1
`;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

export class SharedBudget implements RunBudget {
  private readonly key: string;
  /** Settles and releases not yet written: a reservation waits for them (this process reads its own writes). */
  private readonly pending = new Set<Promise<unknown>>();
  private last = { spentUsd: 0, calls: 0, reservedUsd: 0, inFlight: 0 };
  private failure: unknown = null;

  constructor(
    private readonly redis: Redis,
    runId: string,
    readonly limits: BudgetLimits,
    private readonly spent: Spent = { usd: 0, calls: 0 },
  ) {
    this.key = budgetKey(runId);
  }

  private args(...rest: Array<string | number>): Array<string | number> {
    return [this.spent.calls, this.spent.usd, TTL_S, ...rest];
  }

  /** The owner's session start: the hash exists (from `spent` if absent) and holds no reservation. */
  async beginSession(): Promise<void> {
    await this.redis.eval(CLEAR, 1, this.key, ...this.args());
  }

  /** The shared counts as Redis holds them (tests and the owner's messages). */
  async read(): Promise<Spent & { reservedCalls: number }> {
    const h = await this.redis.hgetall(this.key);
    return { calls: Number(h.calls ?? 0), usd: Number(h.usd ?? 0), reservedCalls: Number(h.rcalls ?? 0) };
  }

  /** The counts seen by this process's last reservation. */
  snapshot(): { spentUsd: number; calls: number; reservedUsd: number; inFlight: number } {
    return { ...this.last };
  }

  async reserve(estimateUsd: number | null, signal?: AbortSignal): Promise<Reservation> {
    const est = estimateUsd ?? 0;
    const { max_calls, max_usd } = this.limits;
    for (;;) {
      signal?.throwIfAborted();
      await Promise.all([...this.pending]);
      if (this.failure !== null) throw this.failure;
      const [ok, calls, usd, rcalls] = (await this.redis.eval(
        RESERVE,
        1,
        this.key,
        ...this.args(est, max_calls ?? -1, max_usd ?? -1),
      )) as [number, string, string, string];
      this.last = { spentUsd: Number(usd), calls: Number(calls), reservedUsd: 0, inFlight: Number(rcalls) };
      if (ok === 1) return { usd: est, done: false };
      const refusal = refusalOf(this.limits, { calls: Number(calls), usd: Number(usd) }, Number(rcalls), 0, est);
      if (Number(rcalls) === 0) throw new BudgetExhaustedError(refusal ?? "budget exhausted");
      await sleep(WAIT_MS, signal);
    }
  }

  settle(r: Reservation, actualUsd: number | null): void {
    this.end(r, 1, actualUsd ?? r.usd);
  }

  release(r: Reservation): void {
    this.end(r, 0, 0);
  }

  private end(r: Reservation, calls: number, usd: number): void {
    if (r.done) return;
    r.done = true;
    const p = this.redis.eval(END, 1, this.key, ...this.args(r.usd, calls, usd)).then(
      () => undefined,
      (err: unknown) => {
        // A lost write would let the run spend past its limit: the next reservation fails instead.
        this.failure = new Error(`shared budget of ${this.key}: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }
}

/** The shared budget of a fanned-out run, on the store the worker set (`useSharedBudgetStore`). */
export function sharedBudgetOf(runId: string, limits: BudgetLimits, spent?: Spent): SharedBudget {
  if (!sharedRedis) throw new Error(`run ${runId}: worker.fan_out needs the worker's Redis for its shared budget`);
  return new SharedBudget(sharedRedis, runId, limits, spent);
}
