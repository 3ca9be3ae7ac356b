import { describe, expect, it } from "vitest";
import { BackendError, classifyError } from "../errors";
import { backoffDelay, withRetries, type RetryOptions } from "./retry";

const opts = (o: Partial<RetryOptions> = {}): RetryOptions => ({
  maxRetries: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  sleep: async () => {},
  random: () => 0.999,
  ...o,
});
const err = (kind: BackendError["kind"], retryAfterMs?: number) =>
  new BackendError({ kind, backend: "b", message: kind, retryAfterMs });

describe("backoffDelay", () => {
  it("is full jitter over a capped exponential", () => {
    expect([0, 1, 2, 3, 4].map((n) => backoffDelay(n, err("transient"), opts({ maxRetries: 10 })))).toEqual([
      999, 1998, 3996, 7992, 15984,
    ]);
    expect(backoffDelay(8, err("transient"), opts({ maxRetries: 10 }))).toBe(29970); // capped at 30 s
    expect(backoffDelay(3, err("transient"), opts({ random: () => 0 }))).toBe(0);
  });

  it("never waits less than Retry-After, and gives up when Retry-After exceeds the limit", () => {
    expect(backoffDelay(0, err("rate_limited", 5000), opts())).toBe(5000);
    expect(backoffDelay(0, err("rate_limited", 500_000), opts())).toBeNull();
  });

  it("does not retry fatal or aborted errors, nor past maxRetries", () => {
    expect(backoffDelay(0, err("fatal"), opts())).toBeNull();
    expect(backoffDelay(0, err("aborted"), opts())).toBeNull();
    expect(backoffDelay(5, err("transient"), opts())).toBeNull();
  });
});

describe("withRetries", () => {
  it("retries rate-limited and transient failures with the computed waits, then succeeds", async () => {
    const waits: number[] = [];
    const failures = [err("rate_limited", 2000), err("transient")];
    let calls = 0;
    const retried: string[] = [];
    const out = await withRetries({
      attempt: async () => {
        calls++;
        if (failures.length) throw failures.shift();
        return "ok";
      },
      classify: (e) => classifyError(e, "b"),
      retry: opts({ sleep: async (ms) => void waits.push(ms), random: () => 0.5 }),
      onRetry: (e) => retried.push(e.kind),
    });
    expect(out).toBe("ok");
    expect(calls).toBe(3);
    expect(waits).toEqual([2000, 1000]);
    expect(retried).toEqual(["rate_limited", "transient"]);
  });

  it("throws a quota error at once: one attempt, no waits", async () => {
    const waits: number[] = [];
    let calls = 0;
    const quota = new BackendError({ kind: "fatal", backend: "b", message: "quota", stopRun: "fail" });
    const p = withRetries({
      attempt: async () => {
        calls++;
        throw quota;
      },
      classify: (e) => classifyError(e, "b"),
      retry: opts({ sleep: async (ms) => void waits.push(ms) }),
    });
    await expect(p).rejects.toBe(quota);
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });

  it("gives up after maxRetries with the last error", async () => {
    let calls = 0;
    const p = withRetries({
      attempt: async () => {
        calls++;
        throw new Error(`boom ${calls}`);
      },
      classify: () => err("transient"),
      retry: opts({ maxRetries: 2 }),
    });
    await expect(p).rejects.toMatchObject({ kind: "transient" });
    expect(calls).toBe(3);
  });

  it("a cancelled wait ends as aborted", async () => {
    const ac = new AbortController();
    const p = withRetries({
      attempt: async () => {
        throw err("transient");
      },
      classify: (e) => classifyError(e, "b"),
      retry: opts({
        sleep: async () => {
          ac.abort();
          throw new Error("aborted");
        },
      }),
      signal: ac.signal,
    });
    await expect(p).rejects.toMatchObject({ kind: "aborted" });
  });
});
