/**
 * One rate limit per provider endpoint and API key, shared by every process (opt-in `model.rate_limit_rpm`
 * and `model.rate_limit_tpm`). The counters live in Redis through rate-limiter-flexible's RateLimiterRedis
 * once `useSharedRateLimitStore(redis)` was called (the worker does, with its own connection); without it
 * (the CLI) they live in this process. Limits are kept over 5-second windows (a twelfth of the per-minute
 * figure each), and the requests granted in a window are paced across it (the n-th share of a window's
 * allowance is sent n shares into the window), so a minute's allowance never leaves in bursts that a
 * provider's bucket, refilled slowly after a 429, would refuse.
 *
 * AIMD: every process sends each request at a weight of 1/f of a point, f ∈ [0.1, 1]. A rate-limit error
 * halves f (multiplicative decrease) and blocks the key for the provider's Retry-After (or its
 * `x-ratelimit-reset-*` / `anthropic-ratelimit-*-reset` header) for every process; each answered call
 * adds 0.02 back (additive increase). A `Retry-After` therefore reaches every worker sharing the key.
 * One decrease per congestion event, as TCP does: a refused request that was granted before f's last
 * decrease was already in flight when it happened, so its 429 blocks and counts but does not halve f
 * again (a burst of refusals used to halve f once per refusal, down to its floor).
 *
 * Learning the limit: a rate-limit error whose headers announce the provider's limit
 * (`x-ratelimit-limit-requests/-tokens`, `anthropic-ratelimit-requests/tokens-limit`) below the configured
 * one caps f at their ratio from then on (then halves it, as every 429 does, so the provider's emptied
 * bucket refills before f climbs back to the cap), so a configured limit that is too high stops causing
 * rate-limit errors after the first. The cap keeps 3 %
 * headroom below the announced limit, for the clocks and bursts of several processes, and is shared
 * through Redis (for an hour; each process looks at most once a second), so one 429 teaches every worker.
 */
import { createHash } from "node:crypto";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Redis } from "ioredis";

/** Window of the counters, in seconds, and the fixed-point scale of a request's weight. */
const WINDOW_S = 5;
const SCALE = 100;
/** Share of an announced limit a learned cap allows; how long processes share a learned cap; how often they look. */
const HEADROOM = 0.97;
const CAP_TTL_S = 3600;
const CAP_SYNC_MS = 1000;
const F_MIN = 0.1;
const F_STEP = 0.02;

let sharedRedis: Redis | null = null;
const GATES = new Map<string, RateGate>();

/** Makes every rate gate created from now on keep its counters in `redis` (null: back to in-process). */
export function useSharedRateLimitStore(redis: Redis | null): void {
  sharedRedis = redis;
  GATES.clear();
}

export interface RateLimits {
  /** Requests per minute; 0 = no limit. */
  rpm: number;
  /** Tokens per minute (prompt + completion); 0 = no limit. */
  tpm: number;
}

type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A request's permission to be sent: whether the provider's limit was known then, and f's decreases so far. */
export interface RateGrant {
  learned: boolean;
  decreases: number;
}

/** A short, non-reversible id of an API key for the counters' key (the key itself never reaches Redis). */
export function keyIdOf(apiKey: string | null | undefined): string {
  if (!apiKey) return "nokey";
  return createHash("sha256").update(apiKey).digest("hex").slice(0, 12);
}

/** Milliseconds from a provider's reset header: OpenAI's "1s", "6m0s", "250ms", or an RFC 3339 time. */
export function resetMsOf(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  const parts = [...v.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length > 0 && parts.map((p) => p[0]).join("") === v) {
    return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * units[p[2]!]!, 0));
  }
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

type HeaderBag = { get(name: string): string | null } | Record<string, string | undefined> | undefined | null;

function header(h: HeaderBag, name: string): string | null {
  if (!h) return null;
  if (typeof (h as { get?: unknown }).get === "function") return (h as { get(n: string): string | null }).get(name);
  return (h as Record<string, string | undefined>)[name] ?? null;
}

/** The per-minute limits a provider's headers announce (OpenAI and Anthropic spellings); 0 = not announced. */
export function providerLimits(h: HeaderBag): RateLimits {
  const first = (names: string[]) => {
    for (const n of names) {
      const v = Number(header(h, n));
      if (header(h, n) !== null && Number.isFinite(v) && v > 0) return v;
    }
    return 0;
  };
  return {
    rpm: first(["x-ratelimit-limit-requests", "anthropic-ratelimit-requests-limit"]),
    tpm: first(["x-ratelimit-limit-tokens", "anthropic-ratelimit-tokens-limit"]),
  };
}

/** The longest reset a provider's rate-limit headers announce (OpenAI and Anthropic spellings). */
export function providerResetMs(h: HeaderBag, now = Date.now()): number | undefined {
  const names = [
    "x-ratelimit-reset-requests",
    "x-ratelimit-reset-tokens",
    "anthropic-ratelimit-requests-reset",
    "anthropic-ratelimit-tokens-reset",
  ];
  const ms = names.map((n) => resetMsOf(header(h, n), now)).filter((x): x is number => x !== undefined);
  return ms.length > 0 ? Math.max(...ms) : undefined;
}

export class RateGate {
  private f = 1;
  /** The highest f allowed: below 1 once the provider announced a lower limit than the configured one. */
  private ceiling = 1;
  private readonly rpm: RateLimiterAbstract | null;
  private readonly tpm: RateLimiterAbstract | null;
  private readonly tpmPoints: number;
  private readonly rpmPoints: number;
  /**
   * Requests that waited for the limiter, rate-limit errors seen, and those of them whose request was
   * sent after the gate had learned the provider's limit (for benchmarks and tests).
   */
  readonly counts = { waited: 0, limited: 0, limitedAfterLearning: 0 };
  private learned = false;
  /** How many times f was halved: a grant remembers it, so a 429 of a request sent before the last halving does not halve again. */
  private decreases = 0;
  private capCheckedAt = 0;

  constructor(
    private readonly key: string,
    private readonly limits: RateLimits,
    private readonly sleep: Sleep,
    private readonly redis: Redis | null = sharedRedis,
    /** `pace: false` sends a window's requests as soon as they are granted (tests of the counters). */
    private readonly opts: { pace?: boolean } = {},
  ) {
    const make = (prefix: string, perMinute: number, windowS: number): RateLimiterAbstract | null => {
      if (perMinute <= 0) return null;
      const opts = {
        keyPrefix: `skillopt:rl:${prefix}`,
        points: windowPoints(perMinute, windowS),
        duration: windowS,
      };
      return redis ? new RateLimiterRedis({ ...opts, storeClient: redis }) : new RateLimiterMemory(opts);
    };
    this.rpm = make("rpm", limits.rpm, WINDOW_S);
    this.rpmPoints = limits.rpm > 0 ? windowPoints(limits.rpm, WINDOW_S) : 0;
    this.tpm = make("tpm", limits.tpm, WINDOW_S);
    this.tpmPoints = limits.tpm > 0 ? windowPoints(limits.tpm, WINDOW_S) : 0;
  }

  /** The AIMD factor (1 = the configured limit). */
  get factor(): number {
    return this.f;
  }

  /** The cap on f learned from the provider's headers (1 = none). */
  get learnedCeiling(): number {
    return this.ceiling;
  }

  /**
   * Waits until one request of about `promptTokens` may be sent. Resolves to the grant: whether the
   * provider's limit was known when it was granted, and f's decreases so far (pass it back to `limited`).
   */
  async acquire(promptTokens: number, signal?: AbortSignal): Promise<RateGrant> {
    await this.syncCap();
    // Weights are read from f at each attempt: a request that waited through a 429 storm (f at its floor, a
    // weight of 10 requests' worth) would otherwise keep asking for that much long after f recovered, and a
    // window full of such stale weights granted a fraction of the limit.
    const granted = await this.take(this.rpm, () => Math.ceil(SCALE / this.f), signal);
    if (granted && this.opts.pace !== false) await this.pace(granted.res, granted.points, signal);
    if (this.tpm)
      await this.take(this.tpm, () => Math.min(this.tpmPoints, Math.ceil((promptTokens * SCALE) / this.f)), signal);
    return { learned: this.learned, decreases: this.decreases };
  }

  /** An answered call: its completion tokens count against the token limit; f grows a little. */
  async answered(completionTokens: number): Promise<void> {
    this.f = Math.min(this.ceiling, this.f + F_STEP);
    if (this.tpm && completionTokens > 0) await this.tpm.penalty(this.key, Math.ceil(completionTokens * SCALE));
  }

  /**
   * A rate-limit error: learn the cap a lower announced limit gives, halve f (unless the refused request
   * was granted before f's last decrease), and block the key for every process for the announced wait.
   * `announced`: the limits in the error's headers; `grant`: what `acquire` returned for the refused
   * request (none: a new congestion event).
   */
  async limited(waitMs: number | undefined, announced?: RateLimits, grant?: RateGrant): Promise<void> {
    this.counts.limited++;
    if (grant?.learned) this.counts.limitedAfterLearning++;
    const ratio = (a: number, c: number) => (a > 0 && c > 0 && a < c ? (HEADROOM * a) / c : 1);
    const cap = announced ? Math.min(ratio(announced.rpm, this.limits.rpm), ratio(announced.tpm, this.limits.tpm)) : 1;
    if (cap < this.ceiling) {
      this.lowerCeiling(Math.max(F_MIN, cap));
      await this.redis?.set(this.capKey, String(this.ceiling), "EX", CAP_TTL_S);
    }
    if (grant === undefined || grant.decreases === this.decreases) {
      this.f = Math.max(F_MIN, this.f / 2);
      this.decreases++;
    }
    const secs = Math.ceil((waitMs ?? 1000) / 1000);
    await Promise.all([this.rpm, this.tpm].map((l) => l?.block(this.key, secs)));
  }

  private get capKey(): string {
    return `skillopt:rl:cap:${this.key} rpm=${this.limits.rpm} tpm=${this.limits.tpm}`;
  }

  private lowerCeiling(cap: number): void {
    this.ceiling = cap;
    this.learned = true;
    this.f = Math.min(this.f, cap);
  }

  /** Takes a cap another process learned (read from Redis at most once a second). */
  private async syncCap(): Promise<void> {
    if (!this.redis) return;
    const now = Date.now();
    if (now - this.capCheckedAt < CAP_SYNC_MS) return;
    this.capCheckedAt = now;
    const cap = Number(await this.redis.get(this.capKey));
    if (Number.isFinite(cap) && cap > 0 && cap < this.ceiling) this.lowerCeiling(Math.max(F_MIN, cap));
  }

  /** Waits for this request's slot in its window: its share of the allowance, that far into the window. */
  private async pace(res: RateLimiterRes, weight: number, signal?: AbortSignal): Promise<void> {
    const windowMs = WINDOW_S * 1000;
    const slotMs = ((res.consumedPoints - weight) / this.rpmPoints) * windowMs;
    const elapsedMs = windowMs - res.msBeforeNext;
    if (slotMs > elapsedMs) await this.sleep(Math.round(slotMs - elapsedMs), signal);
  }

  /** Consumes `points()` (read again at each attempt) from `l`, waiting out full windows; null without a limiter. */
  private async take(
    l: RateLimiterAbstract | null,
    points: () => number,
    signal?: AbortSignal,
  ): Promise<{ res: RateLimiterRes; points: number } | null> {
    if (!l) return null;
    for (;;) {
      const p = points();
      try {
        return { res: await l.consume(this.key, p), points: p };
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) throw res;
        this.counts.waited++;
        // Spread the wake-ups so the waiters of one window do not all retry in the same millisecond.
        await this.sleep(res.msBeforeNext + Math.floor(Math.random() * 50), signal);
      }
    }
  }
}

/** A window's allowance in weight units: its share of the per-minute limit, at least one request. */
function windowPoints(perMinute: number, windowS: number): number {
  return Math.max(SCALE, Math.floor((perMinute * windowS * SCALE) / 60));
}

/** The gate of one endpoint and key in this process (its counters shared through Redis when configured). */
export function sharedRateGate(endpointKey: string, limits: RateLimits, sleep: Sleep): RateGate | null {
  if (limits.rpm <= 0 && limits.tpm <= 0) return null;
  const key = `${endpointKey} rpm=${limits.rpm} tpm=${limits.tpm}`;
  let g = GATES.get(key);
  if (!g) GATES.set(key, (g = new RateGate(endpointKey, limits, sleep)));
  return g;
}

/** The counters of every gate this process made (for benchmarks): key, counts, AIMD factor and learned cap. */
export function rateGateReport(): Array<{ key: string; counts: RateGate["counts"]; factor: number; ceiling: number }> {
  return [...GATES].map(([key, g]) => ({ key, counts: { ...g.counts }, factor: g.factor, ceiling: g.learnedCeiling }));
}
