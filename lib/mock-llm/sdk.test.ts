import Anthropic from "@anthropic-ai/sdk";
import OpenAI, { AzureOpenAI } from "openai";
import { describe, expect, it } from "vitest";
import { analystPrompt, GUIDED, targetPrompt, useMockServer } from "./testing";
import type { MockLlmServer } from "./types";

const start = useMockServer();

const openai = (s: MockLlmServer, extra: { apiKey?: string; maxRetries?: number; timeout?: number } = {}) =>
  new OpenAI({ apiKey: "k", baseURL: `${s.url}/v1`, maxRetries: 0, ...extra });
const anthropic = (s: MockLlmServer, extra: { apiKey?: string; maxRetries?: number; timeout?: number } = {}) =>
  new Anthropic({ apiKey: "k", baseURL: s.url, maxRetries: 0, ...extra });

function chat(client: OpenAI, p = targetPrompt(true), model = "gpt-mock") {
  return client.chat.completions.create({
    model,
    messages: [
      { role: "system", content: p.system },
      { role: "user", content: p.user },
    ],
    max_completion_tokens: 512,
  });
}
function message(client: Anthropic, p = targetPrompt(true)) {
  return client.messages.create({
    model: "claude-mock",
    max_tokens: 512,
    system: p.system,
    messages: [{ role: "user", content: p.user }],
  });
}
const textOf = (m: Anthropic.Message) => m.content.map((b) => (b.type === "text" ? b.text : "")).join("");

describe("real SDKs against the mock LLM server", () => {
  it("openai chat.completions.create gets the sim's answer and usage", async () => {
    const s = await start();
    const r = await chat(openai(s));
    expect(r.choices[0]!.message.content).toContain(`<answer>${GUIDED}</answer>`);
    expect(r.choices[0]!.finish_reason).toBe("stop");
    expect(r.model).toBe("gpt-mock");
    expect(r.usage!.total_tokens).toBeGreaterThan(0);
  });

  it("openai responses.create exposes output_text (optimizer JSON via instructions)", async () => {
    const s = await start();
    const p = analystPrompt();
    const r = await openai(s).responses.create({
      model: "gpt-mock",
      instructions: p.system,
      input: [{ role: "user", content: [{ type: "input_text", text: p.user }] }],
    });
    expect(r.status).toBe("completed");
    expect(JSON.parse(r.output_text)).toHaveProperty("patch.edits");
    expect(r.usage!.total_tokens).toBe(r.usage!.input_tokens + r.usage!.output_tokens);
    expect(s.stats().byRole).toEqual({ optimizer: 1, target: 0 });
  });

  it("anthropic messages.create (Bearer auth) gets the sim's answer", async () => {
    const s = await start({ requireKey: "k" });
    const r = await message(anthropic(s));
    expect(textOf(r)).toContain(`<answer>${GUIDED}</answer>`);
    expect(r.stop_reason).toBe("end_turn");
    expect(r.usage.output_tokens).toBeGreaterThan(0);
  });

  it("AzureOpenAI reaches the deployment path with the api-key header", async () => {
    const s = await start({ requireKey: "azure-key" });
    const az = new AzureOpenAI({
      endpoint: s.url,
      apiKey: "azure-key",
      apiVersion: "2024-10-21",
      deployment: "dep-1",
      maxRetries: 0,
    });
    const r = await chat(az);
    expect(r.model).toBe("dep-1");
    expect(s.stats().byEndpoint).toEqual({ "azure.chat.completions": 1 });
  });

  it("a wrong key is an AuthenticationError in both SDKs", async () => {
    const s = await start({ requireKey: "right" });
    await expect(chat(openai(s, { apiKey: "wrong" }))).rejects.toMatchObject({ status: 401, code: "invalid_api_key" });
    await expect(chat(openai(s, { apiKey: "wrong" }))).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(message(anthropic(s, { apiKey: "wrong" }))).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it("429 is a RateLimitError with Retry-After, which the SDK's own retry honours", async () => {
    const s = await start({ faults: { rate429: 1, retryAfterSeconds: 1 } });
    const err = (await chat(openai(s)).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(err.headers?.get("retry-after")).toBe("1");
    await expect(message(anthropic(s))).rejects.toBeInstanceOf(Anthropic.RateLimitError);
    s.resetStats();
    const t0 = performance.now();
    await expect(chat(openai(s, { maxRetries: 1 }))).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(900);
    expect(s.stats().faults.rate429).toBe(2);
  });

  it("quota exhaustion is a RateLimitError with code insufficient_quota", async () => {
    const s = await start({ faults: { quotaExhaustedRate: 1 } });
    const err = (await chat(openai(s)).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(err).toMatchObject({ code: "insufficient_quota", type: "insufficient_quota" });
    expect(err.headers?.get("retry-after")).toBeNull();
  });

  it("500 is an InternalServerError in both SDKs", async () => {
    const s = await start({ faults: { rate500: 1 } });
    await expect(chat(openai(s))).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    await expect(message(anthropic(s))).rejects.toBeInstanceOf(Anthropic.InternalServerError);
    expect(s.stats().byStatus).toEqual({ "500": 2 });
  });

  it("malformed JSON makes the SDK call reject", async () => {
    const s = await start({ faults: { malformedJsonRate: 1 } });
    await expect(chat(openai(s))).rejects.toThrow();
    await expect(message(anthropic(s))).rejects.toThrow();
    expect(s.stats().faults.malformedJson).toBe(2);
  });

  it("truncation surfaces as finish_reason length / status incomplete / stop_reason max_tokens", async () => {
    const s = await start({ faults: { truncatedRate: 1 } });
    expect((await chat(openai(s))).choices[0]!.finish_reason).toBe("length");
    const resp = await openai(s).responses.create({ model: "m", input: targetPrompt(true).user });
    expect(resp).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
    expect((await message(anthropic(s))).stop_reason).toBe("max_tokens");
  });

  it("a hang ends in the SDK's timeout error and is released on the server", async () => {
    const s = await start({ faults: { hangRate: 1 } });
    await expect(chat(openai(s, { timeout: 300 }))).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    await expect(message(anthropic(s, { timeout: 300 }))).rejects.toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    await expect.poll(() => s.stats()).toMatchObject({ inFlight: 0, aborted: 2, faults: { hang: 2 } });
  });

  it("maxInFlight sees the SDK's concurrent calls", async () => {
    const s = await start({ latency: { fixedMs: 150 } });
    const client = openai(s);
    await Promise.all(Array.from({ length: 4 }, () => chat(client)));
    expect(s.stats()).toMatchObject({ maxInFlight: 4, inFlight: 0, byStatus: { "200": 4 } });
  });
});
