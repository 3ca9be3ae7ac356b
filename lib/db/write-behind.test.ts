import { describe, expect, it } from "vitest";
import { WriteBehind } from "./write-behind";

/** A lander that records each batch and lands only when the test releases it. */
function gated() {
  const batches: number[][] = [];
  const gates: Array<{ release(): void; fail(e: Error): void }> = [];
  const queue = new WriteBehind<number>(
    (batch) =>
      new Promise<void>((resolve, reject) => {
        gates.push({
          release: () => {
            batches.push([...batch]);
            resolve();
          },
          fail: reject,
        });
      }),
  );
  const nextGate = async () => {
    for (let i = 0; i < 100 && gates.length === 0; i++) await new Promise((r) => setImmediate(r));
    const g = gates.shift();
    if (!g) throw new Error("no batch is landing");
    return g;
  };
  return { queue, batches, nextGate };
}

describe("WriteBehind", () => {
  it("lands writes in issue order, batching those queued while a batch lands", async () => {
    const { queue, batches, nextGate } = gated();
    queue.push(1);
    queue.push(2);
    const first = await nextGate();
    queue.push(3);
    queue.push(4);
    queue.push(5);
    expect(queue.pending().map((p) => p.op)).toEqual([1, 2, 3, 4, 5]);
    first.release();
    (await nextGate()).release();
    await queue.flush();
    expect(batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    expect(queue.pending()).toEqual([]);
  });

  it("flush waits for every write issued before it, settle only for the first n", async () => {
    const { queue, nextGate } = gated();
    queue.push(1);
    const first = await nextGate();
    queue.push(2);
    let settled = false;
    let flushed = false;
    const s = queue.settle(1).then(() => (settled = true));
    const f = queue.flush().then(() => (flushed = true));
    await new Promise((r) => setImmediate(r));
    expect([settled, flushed]).toEqual([false, false]);
    first.release();
    await s;
    expect(flushed).toBe(false);
    (await nextGate()).release();
    await f;
    expect(flushed).toBe(true);
  });

  it("the first failure rejects later pushes, settles and flushes, and nothing queued after it lands", async () => {
    const { queue, batches, nextGate } = gated();
    queue.push(1);
    const first = await nextGate();
    queue.push(2);
    const pending = queue.flush();
    first.fail(new Error("disk full"));
    await expect(pending).rejects.toThrow("disk full");
    expect(() => queue.push(3)).toThrow("disk full");
    await expect(queue.flush()).rejects.toThrow("disk full");
    expect(() => queue.check()).toThrow("disk full");
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([]);
    expect(queue.pending()).toEqual([]);
  });

  it("an idle queue flushes at once", async () => {
    const { queue } = gated();
    await expect(queue.flush()).resolves.toBeUndefined();
  });
});
