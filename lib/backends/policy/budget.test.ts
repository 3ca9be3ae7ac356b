import { describe, expect, it } from "vitest";
import { stopRunOf } from "../../engine/ports";
import { Budget, BudgetExhaustedError } from "./budget";

describe("Budget", () => {
  it("reserves, settles with the actual cost, and counts calls", async () => {
    const b = new Budget({ max_usd: 1, max_calls: null });
    const r = await b.reserve(0.4);
    expect(b.snapshot()).toMatchObject({ reservedUsd: 0.4, inFlight: 1, spentUsd: 0, calls: 0 });
    b.settle(r, 0.1);
    expect(b.snapshot()).toMatchObject({ reservedUsd: 0, inFlight: 0, spentUsd: 0.1, calls: 1 });
    b.settle(r, 5); // settling twice changes nothing
    expect(b.snapshot().spentUsd).toBeCloseTo(0.1);
  });

  it("refuses a call whose worst case does not fit, with a pausing error", async () => {
    const b = new Budget({ max_usd: 1, max_calls: null }, { usd: 0.97, calls: 3 });
    const err = await b.reserve(0.05).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExhaustedError);
    expect(stopRunOf(err)).toBe("pause");
    expect((err as Error).message).toBe("budget exhausted: $0.97 of $1.00 spent (the next call may cost up to $0.05)");
    const over = new Budget({ max_usd: 1, max_calls: null }, { usd: 1.02, calls: 9 });
    await expect(over.reserve(0)).rejects.toThrow("budget exhausted: $1.02 of $1.00 spent");
  });

  it("caps the number of calls", async () => {
    const b = new Budget({ max_usd: null, max_calls: 2 });
    b.settle(await b.reserve(null), null);
    const r = await b.reserve(null);
    b.settle(r, null);
    await expect(b.reserve(null)).rejects.toThrow("budget exhausted: 2 of 2 calls");
  });

  it("a reservation that does not fit waits for in-flight calls to settle, then goes ahead if it fits", async () => {
    const b = new Budget({ max_usd: 1, max_calls: null });
    const first = await b.reserve(0.8);
    let second: unknown = null;
    const waiting = b.reserve(0.5).then((r) => (second = r));
    await new Promise((r) => setTimeout(r, 5));
    expect(second).toBeNull();
    b.settle(first, 0.2); // the unused 0.6 comes back
    await waiting;
    expect(second).toMatchObject({ usd: 0.5 });
    expect(b.snapshot()).toMatchObject({ spentUsd: 0.2, reservedUsd: 0.5 });
  });

  it("a waiting reservation is refused once nothing in flight can free enough", async () => {
    const b = new Budget({ max_usd: 1, max_calls: null });
    const first = await b.reserve(0.8);
    const waiting = b.reserve(0.5);
    b.settle(first, 0.8);
    await expect(waiting).rejects.toThrow("budget exhausted: $0.80 of $1.00 spent");
  });

  it("release (a call that never reached the provider) spends and counts nothing", async () => {
    const b = new Budget({ max_usd: 1, max_calls: 1 });
    b.release(await b.reserve(0.9));
    expect(b.snapshot()).toMatchObject({ spentUsd: 0, calls: 0, reservedUsd: 0, inFlight: 0 });
    await expect(b.reserve(0.9)).resolves.toBeTruthy();
  });

  it("no limits: everything passes", async () => {
    const b = new Budget({ max_usd: null, max_calls: null });
    for (let i = 0; i < 5; i++) b.settle(await b.reserve(100), 100);
    expect(b.snapshot()).toMatchObject({ spentUsd: 500, calls: 5 });
  });
});
