/**
 * Retries with capped exponential backoff and full jitter. A provider's Retry-After is a floor on the
 * wait; one longer than `maxRetryAfterMs` ends the call instead of parking it for minutes. Only
 * rate-limited and transient errors are retried; fatal and aborted ones are thrown at once. Sleep and
 * randomness are injectable so tests run instantly and deterministically.
 */
import { BackendError } from "../errors";

export interface RetryOptions {
  /** Extra attempts after the first (0 = no retries). */
  maxRetries: number;
  /** First backoff step, in milliseconds. */
  baseDelayMs: number;
  /** Cap of one backoff wait, in milliseconds (Retry-After may exceed it up to `maxRetryAfterMs`). */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails as rate limited. */
  maxRetryAfterMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Uniform in [0, 1). */
  random: () => number;
}

export const DEFAULT_RETRY: Omit<RetryOptions, "maxRetries"> = {
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  sleep: abortableSleep,
  random: Math.random,
};

/** Resolves after `ms`, or rejects with the signal's reason when it fires first. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The wait before retry number `retry` (0-based) after `err`, or null when the error must not be
 * retried: full jitter over `min(cap, base·2^retry)`, never shorter than the provider's Retry-After.
 */
export function backoffDelay(retry: number, err: BackendError, o: RetryOptions): number | null {
  if (!err.retryable || retry >= o.maxRetries) return null;
  if (err.retryAfterMs !== undefined && err.retryAfterMs > o.maxRetryAfterMs) return null;
  const jittered = Math.floor(o.random() * Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** retry));
  return Math.max(err.retryAfterMs ?? 0, jittered);
}

/**
 * Runs `attempt` until it succeeds or fails for good. `classify` maps each thrown value to a
 * BackendError; `onRetry` hears of every retry before its wait. The run's `signal` interrupts waits.
 */
export async function withRetries<T>(opts: {
  attempt: (n: number) => Promise<T>;
  classify: (err: unknown) => BackendError;
  retry: RetryOptions;
  signal?: AbortSignal;
  onRetry?: (err: BackendError, delayMs: number) => void;
}): Promise<T> {
  for (let n = 0; ; n++) {
    let failure: BackendError;
    try {
      return await opts.attempt(n);
    } catch (err) {
      failure = opts.classify(err);
    }
    const delay = backoffDelay(n, failure, opts.retry);
    if (delay === null) throw failure;
    opts.onRetry?.(failure, delay);
    try {
      await opts.retry.sleep(delay, opts.signal);
    } catch (err) {
      throw new BackendError({
        kind: "aborted",
        backend: failure.backend,
        message: `${failure.backend}: call cancelled while waiting to retry`,
        cause: err,
      });
    }
  }
}
