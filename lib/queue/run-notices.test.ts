import { EventEmitter } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { noticeLatch } from "./run-notices";

function source() {
  const bus = new EventEmitter();
  const latch = noticeLatch((l) => {
    bus.on("n", l);
    return () => bus.off("n", l);
  });
  return { bus, latch };
}

describe("noticeLatch", () => {
  it("keeps a notice that came between two waits: the next wait returns at once", async () => {
    vi.useFakeTimers();
    try {
      const { bus, latch } = source();
      bus.emit("n"); // e.g. while the tail was reading rows
      let woke = false;
      void latch.wait(1000, new AbortController().signal).then(() => (woke = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(woke).toBe(true);
      // Several notices before a wait count once: the following wait sleeps until the timeout.
      bus.emit("n");
      bus.emit("n");
      await latch.wait(1000, new AbortController().signal);
      let second = false;
      void latch.wait(1000, new AbortController().signal).then(() => (second = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(second).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(second).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("wakes a waiting tail as soon as a notice comes, and on abort or close", async () => {
    vi.useFakeTimers();
    try {
      const { bus, latch } = source();
      let woke = false;
      void latch.wait(1000, new AbortController().signal).then(() => (woke = true));
      await vi.advanceTimersByTimeAsync(10);
      expect(woke).toBe(false);
      bus.emit("n");
      await vi.advanceTimersByTimeAsync(0);
      expect(woke).toBe(true);

      const ac = new AbortController();
      let aborted = false;
      void latch.wait(1000, ac.signal).then(() => (aborted = true));
      ac.abort();
      await vi.advanceTimersByTimeAsync(0);
      expect(aborted).toBe(true);

      let closed = false;
      void latch.wait(1000, new AbortController().signal).then(() => (closed = true));
      latch.close();
      await vi.advanceTimersByTimeAsync(0);
      expect(closed).toBe(true);
      expect(bus.listenerCount("n")).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
