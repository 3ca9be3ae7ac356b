import { describe, expect, it } from "vitest";
import { Limiter, sharedLimiter } from "./limiter";

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("Limiter", () => {
  it("never lets more than its size run at once, and runs everything", async () => {
    const lim = new Limiter(3);
    let active = 0;
    let peak = 0;
    const job = async (i: number) =>
      lim.run(async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 2 + (i % 3)));
        active--;
        return i;
      });
    const out = await Promise.all(Array.from({ length: 20 }, (_, i) => job(i)));
    expect(out).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(peak).toBe(3);
    expect(lim.inFlight).toBe(0);
  });

  it("a waiter whose signal fires leaves the queue; the slot goes to the next one", async () => {
    const lim = new Limiter(1);
    const release = await lim.acquire();
    const ac = new AbortController();
    const cancelled = lim.acquire(ac.signal);
    const next = lim.acquire();
    expect(lim.waiting).toBe(2);
    ac.abort(new Error("cancelled"));
    await expect(cancelled).rejects.toThrow("cancelled");
    expect(lim.waiting).toBe(1);
    release();
    const r2 = await next;
    expect(lim.inFlight).toBe(1);
    r2();
    r2(); // releasing twice is harmless
    expect(lim.inFlight).toBe(0);
  });

  it("growing the size admits waiters at once", async () => {
    const lim = new Limiter(1);
    await lim.acquire();
    let admitted = false;
    void lim.acquire().then(() => (admitted = true));
    await tick();
    expect(admitted).toBe(false);
    lim.setLimit(2);
    await tick();
    expect(admitted).toBe(true);
  });

  it("one limiter per backend and base URL in a process, resized by the latest setting", () => {
    const a = sharedLimiter("openai", "http://x/v1/", 4);
    const b = sharedLimiter("openai", "http://x/v1", 2);
    expect(a).toBe(b);
    expect(a.size).toBe(2);
    expect(sharedLimiter("anthropic", "http://x/v1", 2)).not.toBe(a);
  });

  it("tryAcquire takes a free slot at once, never one others wait for", async () => {
    const lim = new Limiter(2);
    const a = lim.tryAcquire()!;
    expect(lim.inFlight).toBe(1);
    const b = lim.tryAcquire()!;
    expect(lim.tryAcquire()).toBeNull();
    let queued = false;
    void lim.acquire().then(() => (queued = true));
    a();
    await tick();
    expect(queued).toBe(true);
    b();
    b();
    expect(lim.inFlight).toBe(1);
    expect(lim.tryAcquire()).not.toBeNull();
  });

  it("onSpare: called once a slot frees that no queued caller wants, never before a queued caller", async () => {
    const lim = new Limiter(1);
    const first = lim.tryAcquire()!;
    const order: string[] = [];
    lim.onSpare(() => {
      order.push("spare");
      lim.tryAcquire()?.();
    });
    const cancelled = lim.onSpare(() => order.push("cancelled"));
    cancelled();
    const queued = lim.acquire().then((release) => {
      order.push("queued");
      release();
    });
    first();
    await queued;
    expect(order).toEqual(["queued", "spare"]);
    expect(lim.inFlight).toBe(0);
  });
});

describe("Limiter.onSpare re-registration", () => {
  it("a listener registering again is called at the next free slot, not again at once", () => {
    const lim = new Limiter(2);
    const release = lim.tryAcquire()!;
    let calls = 0;
    const listen = () => {
      calls++;
      lim.onSpare(listen);
    };
    lim.onSpare(listen);
    release();
    expect(calls).toBe(1);
    lim.tryAcquire()!();
    expect(calls).toBe(2);
  });
});
