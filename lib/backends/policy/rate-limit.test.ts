import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { keyIdOf, providerLimits, providerResetMs, RateGate, resetMsOf, sharedRateGate } from "./rate-limit";

/** A sleep that records its waits and returns at once, the clock standing still. */
function fakeSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

/**
 * A sleep that records its waits and moves the (fake) clock on by each, so a gate waiting out a window or
 * a block gets through it at once instead of spinning in real time until it ends.
 */
function clockSleep(onWait: () => Promise<void> = async () => {}) {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
      await onWait();
      vi.advanceTimersByTime(ms + 1);
    },
  };
}

describe("provider reset headers", () => {
  it("reads OpenAI durations and RFC 3339 times", () => {
    expect(resetMsOf("1s")).toBe(1000);
    expect(resetMsOf("6m0s")).toBe(360_000);
    expect(resetMsOf("250ms")).toBe(250);
    expect(resetMsOf("1.5s")).toBe(1500);
    expect(resetMsOf("2026-12-01T00:00:10Z", Date.parse("2026-12-01T00:00:04Z"))).toBe(6000);
    expect(resetMsOf("soon")).toBeUndefined();
    expect(resetMsOf(null)).toBeUndefined();
  });

  it("takes the longest reset among the requests and tokens headers", () => {
    const h = new Headers({ "x-ratelimit-reset-requests": "2s", "x-ratelimit-reset-tokens": "7s" });
    expect(providerResetMs(h)).toBe(7000);
    expect(providerResetMs({ "anthropic-ratelimit-requests-reset": "3s" })).toBe(3000);
    expect(providerResetMs(new Headers())).toBeUndefined();
  });

  it("never puts the key itself in the counter key", () => {
    expect(keyIdOf("sk-secret-123")).toMatch(/^[0-9a-f]{12}$/);
    expect(keyIdOf("sk-secret-123")).not.toContain("secret");
    expect(keyIdOf(null)).toBe("nokey");
  });
});

describe("RateGate (in-process store)", () => {
  // The in-process counters read Date.now and expire keys with timers: a fake clock moves only with the waits.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("paces a window's requests across it instead of sending them in one burst", async () => {
    const s = fakeSleep();
    const g = new RateGate(`t-${Math.random()}`, { rpm: 60, tpm: 0 }, s.sleep, null); // 5 per 5-second window
    for (let i = 0; i < 5; i++) await g.acquire(1);
    // The fake sleep does not advance time: the n-th request waits about n seconds into the window.
    expect(s.waits).toHaveLength(4);
    s.waits.forEach((w, i) => expect(Math.abs(w - 1000 * (i + 1))).toBeLessThan(100));
    expect(g.counts.waited).toBe(0);
    const unpaced = new RateGate(`t-${Math.random()}`, { rpm: 60, tpm: 0 }, s.sleep, null, { pace: false });
    for (let i = 0; i < 5; i++) await unpaced.acquire(1);
    expect(s.waits).toHaveLength(4);
  });

  it("lets a window's share of the per-minute limit through, then waits", async () => {
    const s = clockSleep();
    const g = new RateGate(`t-${Math.random()}`, { rpm: 60, tpm: 0 }, s.sleep, null, { pace: false });
    for (let i = 0; i < 5; i++) await g.acquire(10); // 60 rpm = 5 per 5-second window
    expect(s.waits).toEqual([]);
    const pending = g.acquire(10);
    await pending;
    expect(g.counts.waited).toBeGreaterThanOrEqual(1);
    expect(s.waits[0]).toBeGreaterThan(3000);
  });

  it("counts tokens: the prompt before, the completion after", async () => {
    const s = clockSleep();
    const g = new RateGate(`t-${Math.random()}`, { rpm: 0, tpm: 1200 }, s.sleep, null); // 100 tokens a window
    await g.acquire(60);
    await g.answered(30);
    expect(s.waits).toEqual([]);
    await g.acquire(20); // 60 + 30 + 20 > 100
    expect(s.waits.length).toBeGreaterThanOrEqual(1);
  });

  it("a rate-limit error halves the rate, blocks for Retry-After, and answers win it back", async () => {
    const s = clockSleep();
    const g = new RateGate(`t-${Math.random()}`, { rpm: 600, tpm: 0 }, s.sleep, null);
    await g.limited(3000);
    expect(g.factor).toBe(0.5);
    await g.acquire(1);
    expect(s.waits[0]).toBeGreaterThan(2000);
    await g.limited(undefined);
    expect(g.factor).toBe(0.25);
    for (let i = 0; i < 10; i++) await g.answered(0);
    expect(g.factor).toBeCloseTo(0.45, 5);
    for (let i = 0; i < 100; i++) await g.answered(0);
    expect(g.factor).toBe(1);
  });

  it("no limits → no gate; one gate per endpoint, key and limits", () => {
    const s = clockSleep();
    expect(sharedRateGate("e k", { rpm: 0, tpm: 0 }, s.sleep)).toBeNull();
    const a = sharedRateGate("e k", { rpm: 10, tpm: 0 }, s.sleep);
    expect(sharedRateGate("e k", { rpm: 10, tpm: 0 }, s.sleep)).toBe(a);
    expect(sharedRateGate("e k2", { rpm: 10, tpm: 0 }, s.sleep)).not.toBe(a);
  });

  it("reads the limits a provider announces (OpenAI and Anthropic spellings)", () => {
    const h = new Headers({ "x-ratelimit-limit-requests": "600", "x-ratelimit-limit-tokens": "90000" });
    expect(providerLimits(h)).toEqual({ rpm: 600, tpm: 90000 });
    expect(providerLimits({ "anthropic-ratelimit-requests-limit": "50" })).toEqual({ rpm: 50, tpm: 0 });
    expect(providerLimits(new Headers({ "x-ratelimit-limit-requests": "lots" }))).toEqual({ rpm: 0, tpm: 0 });
    expect(providerLimits(undefined)).toEqual({ rpm: 0, tpm: 0 });
  });

  it("learns a lower announced limit: f is capped, halved, and never grows past the cap", async () => {
    const s = clockSleep();
    const g = new RateGate(`t-${Math.random()}`, { rpm: 1000, tpm: 0 }, s.sleep, null);
    const before = await g.acquire(1);
    expect(before.learned).toBe(false);
    await g.limited(1000, { rpm: 600, tpm: 0 }, before);
    // 600 / 1000 with 3 % headroom, then halved
    expect(g.learnedCeiling).toBeCloseTo(0.582, 10);
    expect(g.factor).toBeCloseTo(0.291, 10);
    for (let i = 0; i < 50; i++) await g.answered(0);
    expect(g.factor).toBeCloseTo(0.582, 10);
    // A request granted from now on was sent knowing the limit; its 429 halves f as usual.
    const after = await g.acquire(1);
    expect(after.learned).toBe(true);
    await g.limited(1000, { rpm: 600, tpm: 0 }, after);
    expect(g.factor).toBeCloseTo(0.291, 10);
    expect(g.learnedCeiling).toBeCloseTo(0.582, 10);
    expect(g.counts).toMatchObject({ limited: 2, limitedAfterLearning: 1 });
  });

  it("an announced limit at or above the configured one teaches nothing: plain halving", async () => {
    const s = clockSleep();
    const g = new RateGate(`t-${Math.random()}`, { rpm: 600, tpm: 0 }, s.sleep, null);
    await g.limited(1000, { rpm: 600, tpm: 0 });
    expect(g.factor).toBe(0.5);
    expect(g.learnedCeiling).toBe(1);
    expect((await g.acquire(1)).learned).toBe(false);
  });

  it("a request that waited out a full window asks at the weight f has then, not the one it first asked", async () => {
    let onWait = async () => {};
    const s = clockSleep(() => onWait());
    // 600 rpm: 5,000 points a 5-second window, 50 requests at f = 1.
    const g = new RateGate(`t-${Math.random()}`, { rpm: 600, tpm: 0 }, s.sleep, null, { pace: false });
    for (let i = 0; i < 4; i++) await g.limited(undefined); // a 429 storm: f at its floor, 0.1
    vi.advanceTimersByTime(2000); // the storm's 1-second blocks are over
    expect(g.factor).toBe(0.1);
    for (let i = 0; i < 5; i++) await g.acquire(1); // weight 1,000 each: the window is full
    expect(s.waits).toHaveLength(0);
    // The next request waits; answers meanwhile bring f back to 1 before the window ends.
    onWait = async () => {
      for (let i = 0; i < 45; i++) await g.answered(0);
      onWait = async () => {};
    };
    await g.acquire(1);
    expect(g.factor).toBe(1);
    expect(s.waits).toHaveLength(1);
    // It took 100 points of the new window (not 1,000), so 49 more requests fit without waiting.
    for (let i = 0; i < 49; i++) await g.acquire(1);
    expect(s.waits).toHaveLength(1);
    await g.acquire(1);
    expect(s.waits).toHaveLength(2);
  });

  it("one decrease per congestion event: 429s of requests granted before f's last halving do not halve it again", async () => {
    const s = clockSleep();
    const g = new RateGate(`t-${Math.random()}`, { rpm: 600, tpm: 0 }, s.sleep, null, { pace: false });
    // A burst: eight requests granted at f = 1, all refused.
    const burst = [];
    for (let i = 0; i < 8; i++) burst.push(await g.acquire(1));
    for (const grant of burst) await g.limited(1000, undefined, grant);
    expect(g.factor).toBe(0.5); // once, not 1 / 2⁸ (the floor)
    expect(g.counts.limited).toBe(8);
    // Granted after that halving: its refusal is a new event and halves again.
    const later = await g.acquire(1);
    await g.limited(1000, undefined, later);
    expect(g.factor).toBe(0.25);
    // …and a straggler of the first burst still does not.
    await g.limited(1000, undefined, burst[0]);
    expect(g.factor).toBe(0.25);
    expect(g.counts.limited).toBe(10);
  });
});
