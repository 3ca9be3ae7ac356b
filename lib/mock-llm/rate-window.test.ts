import { describe, expect, it } from "vitest";
import { createRequestBucket } from "./rate-window";
import { chatBody, postJson, targetPrompt, useMockServer } from "./testing";

describe("request bucket", () => {
  it("admits ten seconds of allowance at once, then one request per 60/rpm seconds", () => {
    const b = createRequestBucket({ rpm: 60 }); // 10 in a burst, then 1 a second
    for (let i = 0; i < 10; i++) expect(b.take(1000).ok).toBe(true);
    const refused = b.take(1000);
    expect(refused).toMatchObject({ ok: false, retryAfterMs: 1000 });
    expect(b.take(1500).ok).toBe(false);
    expect(b.take(2000).ok).toBe(true);
    expect(b.take(2000).ok).toBe(false);
  });

  it("refills to its capacity, never beyond", () => {
    const b = createRequestBucket({ rpm: 600 }); // capacity 100, 10 a second
    for (let i = 0; i < 100; i++) b.take(0);
    let admitted = 0;
    for (let i = 0; i < 200; i++) if (b.take(60_000).ok) admitted++;
    expect(admitted).toBe(100);
  });

  it("refuses a limit that is not a positive number", () => {
    expect(() => createRequestBucket({ rpm: 0 })).toThrow(/rateLimit\.rpm/);
    expect(() => createRequestBucket({ rpm: Number.NaN })).toThrow(/rateLimit\.rpm/);
  });
});

describe("mock server with an enforced limit", () => {
  const start = useMockServer();

  it("answers 429 beyond the limit with Retry-After and the x-ratelimit headers", async () => {
    const s = await start({ rateLimit: { rpm: 12 } }); // a burst of 2
    const send = () => postJson(`${s.url}/v1/chat/completions`, chatBody(targetPrompt(true)));
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const r = await send();
    expect(r.status).toBe(429);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(4);
    expect(Number(r.headers.get("retry-after-ms"))).toBeGreaterThan(3000);
    expect(r.headers.get("x-ratelimit-limit-requests")).toBe("12");
    expect(r.headers.get("x-ratelimit-remaining-requests")).toBe("0");
    expect(r.json()).toMatchObject({ error: { code: "rate_limit_exceeded" } });
    expect(s.stats().byStatus).toMatchObject({ "200": 2, "429": 1 });
  });
});
