import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { BackendError, classifyError, retryAfterMsOf } from "./errors";
import { useStub } from "./test-helpers";

const h = (o: Record<string, string> = {}) => new Headers(o);
const openaiError = (status: number, body: unknown, headers = h()) =>
  OpenAI.APIError.generate(status, body as object, undefined, headers);

describe("classifyError", () => {
  it("429 with Retry-After is rate_limited and carries the wait", () => {
    const e = classifyError(
      openaiError(429, { error: { message: "slow down", type: "requests" } }, h({ "retry-after": "7" })),
      "openai",
    );
    expect(e).toMatchObject({ kind: "rate_limited", status: 429, retryAfterMs: 7000 });
    expect(e.stopRun).toBeUndefined();
    expect(e.retryable).toBe(true);
  });

  it("429 insufficient_quota is fatal and stops the run", () => {
    const body = {
      error: {
        message: "You exceeded your current quota, please check your plan",
        type: "insufficient_quota",
        code: "insufficient_quota",
      },
    };
    const e = classifyError(openaiError(429, body), "openai");
    expect(e).toMatchObject({ kind: "fatal", stopRun: "fail", status: 429 });
    expect(e.message).toMatch(/quota/);
  });

  it("an Anthropic credit-balance 400 is fatal and stops the run", () => {
    const body = {
      type: "error",
      error: { type: "invalid_request_error", message: "Your credit balance is too low to access the Anthropic API." },
    };
    const e = classifyError(Anthropic.APIError.generate(400, body, undefined, h()), "anthropic");
    expect(e).toMatchObject({ kind: "fatal", stopRun: "fail" });
  });

  it("401/403 stop the run and name the variable to check; 404 stops it as an unknown model", () => {
    const e = classifyError(openaiError(401, { error: { message: "Incorrect API key" } }), "openai", {
      authHint: "check OPENAI_API_KEY",
    });
    expect(e).toMatchObject({ kind: "fatal", stopRun: "fail", status: 401 });
    expect(e.message).toContain("check OPENAI_API_KEY");
    expect(classifyError(openaiError(403, {}), "openai").stopRun).toBe("fail");
    expect(classifyError(openaiError(404, { error: { message: "The model does not exist" } }), "openai")).toMatchObject(
      { kind: "fatal", stopRun: "fail" },
    );
  });

  it("5xx, 408 and 409 are transient; other 4xx are fatal for the call only", () => {
    for (const s of [500, 502, 503, 529, 408, 409])
      expect(classifyError(openaiError(s, {}), "openai").kind).toBe("transient");
    const bad = classifyError(openaiError(400, { error: { message: "context too long" } }), "openai");
    expect(bad).toMatchObject({ kind: "fatal", status: 400 });
    expect(bad.stopRun).toBeUndefined();
  });

  it("a non-JSON 502 body is classified by its status with a short message, not a crash", () => {
    const html = `<html><body><h1>502 Bad Gateway</h1>${"x".repeat(2000)}</body></html>`;
    const e = classifyError(OpenAI.APIError.generate(502, undefined, html, h()), "openai");
    expect(e).toMatchObject({ kind: "transient", status: 502 });
    expect(e.message).toContain("502 Bad Gateway");
    expect(e.message.length).toBeLessThan(400);
  });

  it("connection errors and timeouts are transient; aborts are aborted; malformed JSON is transient", () => {
    expect(classifyError(new OpenAI.APIConnectionError({ message: "refused" }), "openai").kind).toBe("transient");
    expect(classifyError(new Anthropic.APIConnectionTimeoutError(), "anthropic").message).toMatch(/timed out/);
    expect(classifyError(new OpenAI.APIUserAbortError(), "openai").kind).toBe("aborted");
    expect(classifyError(new OpenAI.APIUserAbortError(), "openai", { timedOutAfterS: 2 }).message).toBe(
      "openai: timed out after 2s",
    );
    expect(classifyError(new Error("x"), "openai", { aborted: true }).kind).toBe("aborted");
    expect(classifyError(new SyntaxError("Unexpected end of JSON input"), "openai").kind).toBe("transient");
    const own = new BackendError({ kind: "fatal", backend: "x", message: "m" });
    expect(classifyError(own, "openai")).toBe(own);
  });

  it("reads Retry-After in seconds, as an HTTP date, and retry-after-ms", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMsOf(h({ "retry-after": "2.5" }), now)).toBe(2500);
    expect(retryAfterMsOf(h({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }), now)).toBe(30_000);
    expect(retryAfterMsOf(h({ "retry-after-ms": "150", "retry-after": "9" }), now)).toBe(150);
    expect(retryAfterMsOf(h({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterMsOf({ "retry-after": "3" }, now)).toBe(3000);
  });
});

describe("classifyError on what the SDKs really throw", () => {
  const stub = useStub();

  it("a 502 with an HTML body through the openai SDK", async () => {
    const s = await stub([{ status: 502, headers: { "content-type": "text/html" }, body: "<html>Bad Gateway</html>" }]);
    const client = new OpenAI({ apiKey: "k", baseURL: `${s.url}/v1`, maxRetries: 0 });
    const err = await client.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(classifyError(err, "openai")).toMatchObject({ kind: "transient", status: 502 });
  });

  it("a 200 whose JSON is cut off through the anthropic SDK", async () => {
    const s = await stub([{ status: 200, body: '{"id":"msg_1","content":[{"type":"te' }]);
    const client = new Anthropic({ apiKey: "k", baseURL: s.url, maxRetries: 0 });
    const err = await client.messages
      .create({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    const c = classifyError(err, "anthropic");
    expect(c.kind).toBe("transient");
    expect(c.message).toMatch(/malformed response body/);
  });
});
