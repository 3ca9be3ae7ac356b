import { describe, expect, it } from "vitest";
import { UsageLedger } from "../../lib/backends/policy/stats";
import { ItemUsage, usageOf } from "./item-usage";

/** A one-slot queue: a waiting call is started later by the call that frees the slot (another item's context). */
function oneSlot() {
  let busy = false;
  const waiting: Array<() => void> = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (busy) await new Promise<void>((r) => waiting.push(r));
    busy = true;
    try {
      return await fn();
    } finally {
      busy = false;
      waiting.shift()?.();
    }
  };
}

describe("ItemUsage", () => {
  it("gives each of several items run at once through one shared ledger exactly its own calls", async () => {
    const shared = new UsageLedger();
    shared.register("target", "sim", "m", true);
    const usage = new ItemUsage(shared);
    const slot = oneSlot();
    const tick = () => new Promise((r) => setTimeout(r, 1));
    // Item n makes n calls of n tokens each, interleaved with the others through the one slot.
    const call = async (n: number) => {
      await slot(tick);
      shared.record("target", "rollout", { calls: 1, promptTokens: n, costUsd: n / 10 });
    };
    const items = [1, 2, 3].map(async (n) => {
      const own = new UsageLedger();
      await usage.within(own, async () => {
        for (let i = 0; i < n; i++) await call(n);
        if (n === 2) shared.record("target", "rollout", { errorKind: "transient", retries: 2 });
      });
      return usageOf(own);
    });
    const [one, two, three] = await Promise.all(items);
    const of = (d: ReturnType<typeof usageOf>) =>
      d.map((r) => [r.role, r.stage, r.backend, r.counters.calls, r.counters.promptTokens]);
    expect(of(one!)).toEqual([["target", "rollout", "sim", 1, 1]]);
    expect(of(two!)).toEqual([["target", "rollout", "sim", 2, 4]]);
    expect(two![0]!.counters.errors).toEqual({ transient: 1 });
    expect(two![0]!.counters.retries).toBe(2);
    expect(of(three!)).toEqual([["target", "rollout", "sim", 3, 9]]);
    expect(three![0]!.counters.costUsd).toBeCloseTo(0.9);
    // The shared ledger still has everything; a record outside any item is in no item's usage.
    shared.record("target", "rollout", { calls: 1 });
    expect(shared.statsOf("target")!.total.calls).toBe(7);
  });

  it("an item without calls has no usage; an unknown price stays unknown", async () => {
    const shared = new UsageLedger();
    shared.register("target", "sim", "m", false);
    const usage = new ItemUsage(shared);
    const idle = new UsageLedger();
    await usage.within(idle, async () => {});
    expect(usageOf(idle)).toEqual([]);
    const own = new UsageLedger();
    await usage.within(own, async () => shared.record("target", "rollout", { calls: 1, costUsd: null }));
    expect(usageOf(own)[0]!.counters.costUsd).toBeNull();
  });
});
