/**
 * One rate limit across processes: two processes with a RateGate on the same Redis, endpoint and key
 * share one allowance, and a Retry-After reported in one process holds back the other.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisServer, type RedisServer } from "../helpers/processes";

let redis: RedisServer;
const children: ChildProcess[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await redis.kill();
});

/** A child process speaking the line protocol of tests/fixtures/rate-gate-child.ts. */
function child(key: string, rpm: number) {
  const proc = spawn(process.execPath, ["--import", "tsx", "tests/fixtures/rate-gate-child.ts"], {
    env: { ...process.env, REDIS_URL: redis.url, GATE_KEY: key, GATE_RPM: String(rpm) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.push(proc);
  const waiting: Array<(line: string) => void> = [];
  const buffered: string[] = [];
  createInterface({ input: proc.stdout! }).on("line", (l) => {
    const w = waiting.shift();
    if (w) w(l);
    else buffered.push(l);
  });
  const next = () =>
    new Promise<string>((resolve) => {
      const b = buffered.shift();
      if (b !== undefined) resolve(b);
      else waiting.push(resolve);
    });
  return {
    ready: next(),
    async send<T>(cmd: string): Promise<T> {
      proc.stdin!.write(`${cmd}\n`);
      return JSON.parse(await next()) as T;
    },
  };
}

type Take = { granted: number; waitMs: number };

describe("shared rate limit (rate-limiter-flexible on Redis)", () => {
  it("two processes share one allowance per endpoint and key", async () => {
    const key = `openai http://x/v1 k${Date.now()}`;
    const a = child(key, 120); // 120 requests/min = 10 per 5-second window
    const b = child(key, 120);
    expect(await a.ready).toBe("ready");
    expect(await b.ready).toBe("ready");
    const [ta, tb] = await Promise.all([a.send<Take>("take"), b.send<Take>("take")]);
    expect(ta.granted + tb.granted).toBe(10);
    expect(ta.waitMs).toBeGreaterThan(0);
    expect(tb.waitMs).toBeGreaterThan(0);
    // Another key on the same endpoint has its own allowance.
    const c = child(`${key}-other`, 120);
    await c.ready;
    expect((await c.send<Take>("take")).granted).toBe(10);
  }, 60_000);

  it("a Retry-After seen by one process blocks the key for the other", async () => {
    const key = `openai http://y/v1 k${Date.now()}`;
    const a = child(key, 6000);
    const b = child(key, 6000);
    await Promise.all([a.ready, b.ready]);
    expect(await a.send<{ factor: number }>("limited 8000")).toEqual({ factor: 0.5 });
    const tb = await b.send<Take>("take");
    expect(tb.granted).toBe(0);
    expect(tb.waitMs).toBeGreaterThan(5000);
  }, 60_000);

  it("a limit one process learned from a 429's headers caps the other process too", async () => {
    const key = `openai http://z/v1 k${Date.now()}`;
    const a = child(key, 1000);
    const b = child(key, 1000);
    await Promise.all([a.ready, b.ready]);
    expect(await a.send<{ factor: number }>("limited 1000 600")).toEqual({ factor: 0.291 });
    // b reads the shared cap on its next request (it waits out the block, then takes one).
    await b.send<Take>("take");
    expect((await b.send<{ factor: number }>("factor")).factor).toBeCloseTo(0.582, 10);
  }, 60_000);
});
