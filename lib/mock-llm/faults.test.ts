import { describe, expect, it, vi } from "vitest";
import { createFaultPicker, createLatencyPicker } from "./draws";
import { analystPrompt, chatBody, postJson, targetPrompt, useMockServer } from "./testing";
import type { MockFaults } from "./types";

const start = useMockServer();
const anthropicBody = () => {
  const p = targetPrompt(true);
  return { model: "claude", max_tokens: 200, system: p.system, messages: [{ role: "user", content: p.user }] };
};

describe("fault injection", () => {
  it("429 carries Retry-After and a rate-limit body in each provider's envelope", async () => {
    const s = await start({ faults: { rate429: 1, retryAfterSeconds: 3 } });
    const oa = await postJson(`${s.url}/v1/chat/completions`, chatBody(targetPrompt(true)));
    expect(oa.status).toBe(429);
    expect(oa.headers.get("retry-after")).toBe("3");
    expect(oa.json()).toMatchObject({ error: { code: "rate_limit_exceeded" } });
    const an = await postJson(`${s.url}/v1/messages`, anthropicBody());
    expect(an.status).toBe(429);
    expect(an.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
    expect(s.stats()).toMatchObject({ faults: { rate429: 2 }, byStatus: { "429": 2 } });
  });

  it("quota exhaustion is a 429 with an insufficient_quota body and no Retry-After", async () => {
    const s = await start({ faults: { quotaExhaustedRate: 1 } });
    const r = await postJson(`${s.url}/v1/chat/completions`, chatBody(targetPrompt(true)));
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBeNull();
    const body = r.json() as { error: { type: string; code: string; message: string } };
    expect(body.error).toMatchObject({ type: "insufficient_quota", code: "insufficient_quota" });
    expect(body.error.message).toMatch(/^You exceeded your current quota/);
    expect(s.stats().faults.quotaExhausted).toBe(1);
  });

  it("500 answers a server-error body", async () => {
    const s = await start({ faults: { rate500: 1 } });
    const r = await postJson(`${s.url}/v1/responses`, { model: "m", input: "hi" });
    expect(r.status).toBe(500);
    expect(r.json()).toMatchObject({ error: { type: "server_error" } });
    expect(s.stats()).toMatchObject({ faults: { rate500: 1 }, byStatus: { "500": 1 } });
  });

  it("malformed JSON is a 200 whose body does not parse", async () => {
    const s = await start({ faults: { malformedJsonRate: 1 } });
    const r = await postJson(`${s.url}/v1/chat/completions`, chatBody(targetPrompt(true)));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(() => r.json()).toThrow(SyntaxError);
    expect(s.stats().faults.malformedJson).toBe(1);
  });

  it("truncation halves the text and reports the token limit as the stop reason", async () => {
    const s = await start();
    const whole = (await postJson(`${s.url}/v1/messages`, anthropicBody())).json() as {
      content: Array<{ text: string }>;
    };
    s.setFaults({ truncatedRate: 1 });
    const cut = (await postJson(`${s.url}/v1/messages`, anthropicBody())).json() as {
      content: Array<{ text: string }>;
      stop_reason: string;
    };
    const full = whole.content[0]!.text;
    expect(cut.content[0]!.text).toBe(full.slice(0, Math.floor(full.length / 2)));
    expect(cut.stop_reason).toBe("max_tokens");
    const chat = (await postJson(`${s.url}/v1/chat/completions`, chatBody(targetPrompt(true)))).json() as {
      choices: Array<{ finish_reason: string }>;
    };
    expect(chat.choices[0]!.finish_reason).toBe("length");
    expect(s.stats().faults.truncated).toBe(2);
  });

  it("a hung request is released when the client aborts", async () => {
    const s = await start({ faults: { hangRate: 1 } });
    const ctl = new AbortController();
    const pending = postJson(`${s.url}/v1/chat/completions`, chatBody(targetPrompt(true)), { signal: ctl.signal });
    await vi.waitFor(() => expect(s.stats().faults.hang).toBe(1));
    expect(s.stats().inFlight).toBe(1);
    ctl.abort();
    await expect(pending).rejects.toThrow();
    await vi.waitFor(() => expect(s.stats()).toMatchObject({ inFlight: 0, aborted: 1 }));
    expect(s.stats().byStatus).toEqual({});
  });

  it("close() ends even while a request hangs", async () => {
    const s = await start({ faults: { hangRate: 1 } });
    const pending = postJson(`${s.url}/v1/chat/completions`, chatBody(targetPrompt(true))).catch((e: unknown) => e);
    await vi.waitFor(() => expect(s.stats().faults.hang).toBe(1));
    await s.close();
    expect(await pending).toBeInstanceOf(Error);
  });

  it("the same fault seed gives the same sequence; setFaults restarts it", async () => {
    const faults: MockFaults = { rate500: 0.3, rate429: 0.2, seed: 7 };
    const statuses = async (url: string) => {
      const out: number[] = [];
      for (let i = 0; i < 12; i++)
        out.push((await postJson(`${url}/v1/chat/completions`, chatBody(targetPrompt(true)))).status);
      return out;
    };
    const a = await start({ faults });
    const b = await start({ faults });
    const first = await statuses(a.url);
    expect(await statuses(b.url)).toEqual(first);
    a.setFaults(faults);
    expect(await statuses(a.url)).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 429, 500]));
  });
});

describe("fault scope", () => {
  it("roles: only the named role meets faults", async () => {
    const s = await start({ faults: { rate500: 1, roles: ["target"] } });
    expect((await postJson(`${s.url}/v1/chat/completions`, chatBody(targetPrompt(true)))).status).toBe(500);
    expect((await postJson(`${s.url}/v1/chat/completions`, chatBody(analystPrompt()))).status).toBe(200);
    expect(s.stats().faults.rate500).toBe(1);
  });

  it("byPrompt: the same prompt always meets the same fault, so a retry cannot help", async () => {
    const s = await start({ faults: { rate500: 0.5, byPrompt: true } });
    const prompts = Array.from({ length: 16 }, (_, i) => ({ system: `target system ${i}`, user: "question" }));
    const first = await Promise.all(
      prompts.map((p) => postJson(`${s.url}/v1/chat/completions`, chatBody(p)).then((r) => r.status)),
    );
    const again = await Promise.all(
      [...prompts].reverse().map((p) => postJson(`${s.url}/v1/chat/completions`, chatBody(p)).then((r) => r.status)),
    );
    expect(again.reverse()).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 500]));
  });
});

describe("seeded draws", () => {
  it("fault rates hold over many draws and kinds never overlap", () => {
    const pick = createFaultPicker({ rate429: 0.1, rate500: 0.05, truncatedRate: 0.2 }, 42);
    const counts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      const k = pick() ?? "none";
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    expect(counts.get("rate429")! / 4000).toBeCloseTo(0.1, 1);
    expect(counts.get("rate500")! / 4000).toBeCloseTo(0.05, 1);
    expect(counts.get("truncated")! / 4000).toBeCloseTo(0.2, 1);
    expect(counts.get("none")! / 4000).toBeCloseTo(0.65, 1);
  });

  it("latency is fixed, or mean ± jitter and repeatable", () => {
    expect(createLatencyPicker({ fixedMs: 30, meanMs: 500 }, 1)()).toBe(30);
    expect(createLatencyPicker(undefined, 1)()).toBe(0);
    const a = createLatencyPicker({ meanMs: 100, jitterMs: 40 }, 5);
    const b = createLatencyPicker({ meanMs: 100, jitterMs: 40 }, 5);
    const xs = Array.from({ length: 50 }, () => a());
    expect(Array.from({ length: 50 }, () => b())).toEqual(xs);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(60);
    expect(Math.max(...xs)).toBeLessThanOrEqual(140);
    expect(new Set(xs).size).toBeGreaterThan(10);
  });
});
