import { describe, expect, it, vi } from "vitest";
import { createCoalescedRunner } from "./coalesce";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("createCoalescedRunner", () => {
  it("runs at most one task at a time and one trailing run for a burst", async () => {
    const gates: Array<ReturnType<typeof deferred>> = [];
    const runner = createCoalescedRunner(() => {
      const d = deferred();
      gates.push(d);
      return d.promise;
    });
    for (let i = 0; i < 50; i++) runner.request();
    expect(gates).toHaveLength(1);
    gates[0]!.resolve();
    await Promise.resolve();
    await Promise.resolve();
    expect(gates).toHaveLength(2);
    gates[1]!.resolve();
    await Promise.resolve();
    await Promise.resolve();
    expect(gates).toHaveLength(2);
  });

  it("drops the trailing run once cancelled", async () => {
    let calls = 0;
    const d = deferred();
    const runner = createCoalescedRunner(() => {
      calls++;
      return d.promise;
    });
    runner.request();
    runner.request();
    runner.cancel();
    d.resolve();
    await Promise.resolve();
    await Promise.resolve();
    expect(calls).toBe(1);
  });
});

describe("createCoalescedRunner with a gap", () => {
  it("waits minGapMs before the trailing run", async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const runner = createCoalescedRunner(
        async () => {
          calls++;
        },
        { minGapMs: 300 },
      );
      runner.request();
      runner.request();
      await vi.advanceTimersByTimeAsync(0);
      expect(calls).toBe(1);
      runner.request(); // folds into the pending trailing run
      await vi.advanceTimersByTimeAsync(299);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
