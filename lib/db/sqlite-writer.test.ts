import { describe, expect, it } from "vitest";
import { isBusyError, SerialWriter, type WriterDeps } from "./sqlite-writer";

/** What better-sqlite3 throws, and what Prisma makes of it (shapes recorded from Prisma 6.19). */
const sqliteBusy = () => Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
const prismaBusy = () =>
  Object.assign(new Error("Invalid `tx.run.update()` invocation in\n/x.ts:1:1\n\nOperation has timed out"), {
    code: "P1008",
    meta: {
      modelName: "Run",
      driverAdapterError: {
        name: "DriverAdapterError",
        cause: { originalCode: "SQLITE_BUSY", originalMessage: "database is locked", kind: "SocketTimeout" },
      },
    },
  });
const txExpired = () =>
  Object.assign(
    new Error(
      "Transaction API error: A query cannot be executed on an expired transaction. The timeout for this transaction was 100 ms",
    ),
    { code: "P2028", meta: { timeout: 100 } },
  );

function fakeDeps(): WriterDeps & { sleeps: number[]; retries: string[] } {
  const sleeps: number[] = [];
  const retries: string[] = [];
  return {
    sleeps,
    retries,
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
    now: () => 0,
    yieldToLoop: async () => {},
    onRetry: (r) => void retries.push(`${r.label} #${r.attempt} ${r.delayMs}ms`),
  };
}

/** A write that throws `errors` one by one, then returns "ok". */
function flaky(errors: Array<() => Error>) {
  let calls = 0;
  const fn = async () => {
    calls++;
    const next = errors.shift();
    if (next) throw next();
    return "ok";
  };
  return { fn, calls: () => calls };
}

describe("isBusyError", () => {
  it("recognises SQLite busy/locked and transaction time-outs in every shape they arrive in", () => {
    expect(isBusyError(sqliteBusy())).toBe(true);
    expect(isBusyError(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY_SNAPSHOT" }))).toBe(true);
    expect(isBusyError(prismaBusy())).toBe(true);
    expect(isBusyError(txExpired())).toBe(true);
    expect(
      isBusyError(
        Object.assign(new Error("Transaction API error: Unable to start a transaction in the given time."), {
          code: "P2028",
        }),
      ),
    ).toBe(true);
    expect(isBusyError(new Error("wrapped", { cause: sqliteBusy() }))).toBe(true);
    // A COMMIT that failed arrives as the adapter's error, not wrapped by Prisma.
    const adapterError = Object.assign(new Error("SocketTimeout"), {
      name: "DriverAdapterError",
      cause: { originalCode: "SQLITE_BUSY", originalMessage: "database is locked", kind: "SocketTimeout" },
    });
    expect(isBusyError(adapterError)).toBe(true);
  });

  it("leaves every other error alone", () => {
    expect(
      isBusyError(Object.assign(new Error("Unique constraint failed on the fields: (`id`)"), { code: "P2002" })),
    ).toBe(false);
    expect(isBusyError(Object.assign(new Error("Record to update not found."), { code: "P2025" }))).toBe(false);
    expect(isBusyError(new Error("boom"))).toBe(false);
    expect(isBusyError("database")).toBe(false);
    expect(isBusyError(undefined)).toBe(false);
  });
});

describe("SerialWriter", () => {
  it("retries a busy write with growing, jittered waits and logs each retry", async () => {
    const deps = fakeDeps();
    const w = new SerialWriter({ attempts: 5, baseDelayMs: 20, maxDelayMs: 1000 }, deps);
    const f = flaky([prismaBusy, sqliteBusy, txExpired]);
    await expect(w.run("run.update", f.fn)).resolves.toBe("ok");
    expect(f.calls()).toBe(4);
    // Equal jitter: half the capped step plus random · half (random = 0.5 here).
    expect(deps.sleeps).toEqual([15, 30, 60]);
    expect(deps.retries).toEqual(["run.update #1 15ms", "run.update #2 30ms", "run.update #3 60ms"]);
    expect(w.stats.snapshot()).toMatchObject({ writes: 1, retries: 3, gaveUp: 0, failed: 0 });
  });

  it("caps the wait at maxDelayMs", async () => {
    const deps = fakeDeps();
    const w = new SerialWriter({ attempts: 8, baseDelayMs: 100, maxDelayMs: 400 }, deps);
    const f = flaky(Array.from({ length: 6 }, () => sqliteBusy));
    await w.run("x", f.fn);
    expect(Math.max(...deps.sleeps)).toBe(300);
  });

  it("gives up after the last attempt and throws the busy error", async () => {
    const deps = fakeDeps();
    const w = new SerialWriter({ attempts: 3, baseDelayMs: 10, maxDelayMs: 100 }, deps);
    const f = flaky(Array.from({ length: 5 }, () => sqliteBusy));
    await expect(w.run("checkpoint.upsert", f.fn)).rejects.toThrow("database is locked");
    expect(f.calls()).toBe(3);
    expect(w.stats.snapshot()).toMatchObject({ writes: 0, retries: 2, gaveUp: 1, failed: 1 });
  });

  it("throws any other error at once, without retrying", async () => {
    const deps = fakeDeps();
    const w = new SerialWriter({ attempts: 5, baseDelayMs: 10, maxDelayMs: 100 }, deps);
    const f = flaky([() => Object.assign(new Error("Unique constraint failed"), { code: "P2002" })]);
    await expect(w.run("run.create", f.fn)).rejects.toThrow("Unique constraint failed");
    expect(f.calls()).toBe(1);
    expect(deps.sleeps).toEqual([]);
    expect(w.stats.snapshot()).toMatchObject({ retries: 0, gaveUp: 0, failed: 1 });
  });

  it("runs writes one at a time, in the order they were asked for, even while one is retrying", async () => {
    const w = new SerialWriter(
      { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 },
      { ...fakeDeps(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
    );
    let active = 0;
    let most = 0;
    const order: string[] = [];
    const write = (name: string, busyFirst: boolean) => {
      let first = busyFirst;
      return w.run(name, async () => {
        active++;
        most = Math.max(most, active);
        await new Promise((r) => setTimeout(r, 2));
        active--;
        if (first) {
          first = false;
          throw sqliteBusy();
        }
        order.push(name);
        return name;
      });
    };
    const results = await Promise.all([write("a", true), write("b", false), write("c", true), write("d", false)]);
    expect(results).toEqual(["a", "b", "c", "d"]);
    expect(order).toEqual(["a", "b", "c", "d"]);
    expect(most).toBe(1);
  });

  it("a failed write does not block the ones behind it", async () => {
    const w = new SerialWriter({ attempts: 1, baseDelayMs: 1, maxDelayMs: 1 }, fakeDeps());
    const a = w.run("a", async () => {
      throw new Error("bad row");
    });
    const b = w.run("b", async () => "b");
    await expect(a).rejects.toThrow("bad row");
    await expect(b).resolves.toBe("b");
  });

  it("a write issued from inside a write runs at once instead of waiting for itself", async () => {
    const w = new SerialWriter({ attempts: 2, baseDelayMs: 1, maxDelayMs: 1 }, fakeDeps());
    const inner = await Promise.race([
      w.run("outer", () => w.run("inner", async () => "inner done")),
      new Promise((r) => setTimeout(() => r("deadlock"), 500)),
    ]);
    expect(inner).toBe("inner done");
  });

  it("lets timers and I/O run between queued writes (the real yield)", async () => {
    const w = new SerialWriter({ attempts: 1, baseDelayMs: 1, maxDelayMs: 1 });
    const seen: string[] = [];
    // Synchronous writes (better-sqlite3) resolve as microtasks: without a yield, a burst of them never
    // lets a timer, a signal handler or a socket run until the burst ends.
    setImmediate(() => seen.push("loop"));
    const burst = Array.from({ length: 50 }, (_, i) => w.run("w", async () => void seen.push(`w${i}`)));
    await Promise.all(burst);
    expect(seen.indexOf("loop")).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf("loop")).toBeLessThan(seen.indexOf("w49"));
  });

  it("summarises counts and latency percentiles in one line", async () => {
    let t = 0;
    const w = new SerialWriter({ attempts: 2, baseDelayMs: 1, maxDelayMs: 1 }, { ...fakeDeps(), now: () => t });
    for (const ms of [1, 2, 3, 4, 100]) {
      await w.run("x", async () => {
        t += ms;
      });
    }
    expect(w.stats.snapshot()).toMatchObject({ writes: 5, p50Ms: 3, p95Ms: 100, maxMs: 100 });
    expect(w.stats.summary()).toBe("5 writes, 0 retries, 0 gave up; latency p50 3 ms, p95 100 ms, max 100 ms");
  });
});
