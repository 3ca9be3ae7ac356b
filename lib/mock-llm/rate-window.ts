/**
 * An enforced requests-per-minute limit for the mock server (opt-in `rateLimit.rpm`), shaped like a
 * provider's: a token bucket that holds ten seconds of allowance (a sixth of the per-minute figure) and
 * refills continuously. A request beyond it gets a 429 with `Retry-After` (whole seconds), `retry-after-ms`
 * and the `x-ratelimit-*-requests` headers OpenAI sends, so a client can learn the limit.
 */
export interface RateLimitOptions {
  /** Requests per minute over all keys and endpoints of the server. */
  rpm: number;
}

export type BucketVerdict = { ok: true } | { ok: false; retryAfterMs: number; headers: Record<string, string> };

export interface RequestBucket {
  /** Takes one request's allowance at time `now` (ms), or says how long until one is free. */
  take(now: number): BucketVerdict;
}

export function createRequestBucket(opts: RateLimitOptions): RequestBucket {
  if (!Number.isFinite(opts.rpm) || opts.rpm <= 0)
    throw new Error(`rateLimit.rpm: expected a positive number, got ${opts.rpm}`);
  const perMs = opts.rpm / 60_000;
  const capacity = Math.max(1, opts.rpm / 6);
  let tokens = capacity;
  let at: number | null = null;
  return {
    take(now) {
      if (at !== null) tokens = Math.min(capacity, tokens + (now - at) * perMs);
      at = now;
      if (tokens >= 1) {
        tokens -= 1;
        return { ok: true };
      }
      const retryAfterMs = Math.ceil((1 - tokens) / perMs);
      const fullMs = Math.ceil((capacity - tokens) / perMs);
      return {
        ok: false,
        retryAfterMs,
        headers: {
          "retry-after": String(Math.ceil(retryAfterMs / 1000)),
          "retry-after-ms": String(retryAfterMs),
          "x-ratelimit-limit-requests": String(opts.rpm),
          "x-ratelimit-remaining-requests": "0",
          "x-ratelimit-reset-requests": `${fullMs}ms`,
        },
      };
    },
  };
}
