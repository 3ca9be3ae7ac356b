/**
 * The SDK backends end to end: each real SDK (openai, AzureOpenAI, @anthropic-ai/sdk) against the mock
 * LLM server, through the registry and the policy layer — answers, retries, classified failures,
 * timeouts, the concurrency limit, the budget, the cache, and usage/cost accounting.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RunConfigSchema, type RunConfigInput } from "../../lib/contracts/run-config";
import type { CompletionRequest, ModelClient, Role } from "../../lib/engine/ports";
import { RunPolicy } from "../../lib/backends/policy/run-policy";
import { createModelClient } from "../../lib/backends/registry";
import { stopRunOf } from "../../lib/engine";
import { GUIDED, targetPrompt, useMockServer, mockModelSettings as modelFor } from "../../lib/mock-llm/testing";
import type { MockLlmServer } from "../../lib/mock-llm";

const KEY = "sk-mock";
const ENV = {
  OPENAI_API_KEY: KEY,
  AZURE_OPENAI_API_KEY: KEY,
  ANTHROPIC_API_KEY: KEY,
  OPENAI_COMPATIBLE_API_KEY: KEY,
};
const prompt = targetPrompt(true);
const req = (o: Partial<CompletionRequest> = {}): CompletionRequest => ({
  role: "target",
  stage: "rollout",
  system: prompt.system,
  messages: [{ role: "user", content: prompt.user }],
  maxTokens: 256,
  reasoningEffort: "medium",
  ...o,
});

function makeClient(
  server: MockLlmServer,
  backend: string,
  extra: RunConfigInput & { model?: Record<string, unknown> } = {},
  role: Role = "target",
) {
  const config = RunConfigSchema.parse({ ...extra, model: { ...modelFor(backend, server.url), ...extra.model } });
  const run = new RunPolicy(config, {
    rootDir: mkdtempSync(join(tmpdir(), "backends-int-")),
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
  const client: ModelClient = createModelClient(role, config, { simKnowledge: null, env: ENV, run });
  return { client, run };
}

describe("SDK backends against the mock LLM server", () => {
  const mock = useMockServer();

  it.each(["openai", "openai-responses", "azure-openai", "anthropic", "openai-compatible"])(
    "%s answers through its SDK",
    async (backend) => {
      const server = await mock({ requireKey: KEY });
      const { client } = makeClient(server, backend);
      const res = await client.complete(req());
      expect(res.text).toContain(GUIDED);
      expect(res.usage.promptTokens).toBeGreaterThan(0);
      const endpoint =
        { "openai-responses": "responses", "azure-openai": "azure.chat.completions", anthropic: "messages" }[backend] ??
        "chat.completions";
      expect(server.stats().byEndpoint).toEqual({ [endpoint]: 1 });
    },
  );

  it("records usage and cost from the provider's token counts", async () => {
    const server = await mock();
    const { client } = makeClient(server, "openai");
    await client.complete(req());
    await client.complete(req({ stage: "selection" }));
    const total = client.stats!().total;
    const tokens = server.stats().tokens;
    expect(total).toMatchObject({ calls: 2, promptTokens: tokens.prompt, completionTokens: tokens.completion });
    expect(total.costUsd).toBeCloseTo((tokens.prompt * 2.5 + tokens.completion * 10) / 1e6, 10);
    expect(total.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("retries 429s (honouring Retry-After) and 500s until they succeed, counting every retry", async () => {
    const server = await mock({ faults: { rate429: 0.3, rate500: 0.3, retryAfterSeconds: 0.02 } });
    const { client } = makeClient(server, "anthropic", { model: { max_retries: 10 } });
    for (let i = 0; i < 8; i++) expect((await client.complete(req())).text).toContain(GUIDED);
    const faults = server.stats().faults;
    expect(faults.rate429).toBeGreaterThan(0);
    expect(faults.rate500).toBeGreaterThan(0);
    expect(client.stats!().total).toMatchObject({ calls: 8, retries: faults.rate429 + faults.rate500, errors: {} });
  });

  it("an exhausted quota fails the run on the first answer — no retry storm", async () => {
    const server = await mock({ faults: { quotaExhaustedRate: 1 } });
    const { client } = makeClient(server, "openai", { model: { max_retries: 5 } });
    const err = await client.complete(req()).catch((e: unknown) => e);
    expect(stopRunOf(err)).toBe("fail");
    expect((err as Error).message).toMatch(/quota/);
    expect(server.stats().requests).toBe(1);
  });

  it("a wrong key fails the run naming the variable to check", async () => {
    const server = await mock({ requireKey: "another-key" });
    const { client } = makeClient(server, "azure-openai");
    const err = await client.complete(req()).catch((e: unknown) => e);
    expect(stopRunOf(err)).toBe("fail");
    expect((err as Error).message).toMatch(/authentication failed \(HTTP 401\).*check AZURE_OPENAI_API_KEY/);
  });

  it("a malformed JSON body is a classified transient error", async () => {
    const server = await mock({ faults: { malformedJsonRate: 1 } });
    const { client } = makeClient(server, "openai-compatible", { model: { max_retries: 1 } });
    await expect(client.complete(req())).rejects.toMatchObject({
      name: "BackendError",
      kind: "transient",
      message: expect.stringMatching(/malformed response body/),
    });
    expect(server.stats().requests).toBe(2);
  });

  it("a hung request times out", async () => {
    const server = await mock({ faults: { hangRate: 1 } });
    const { client } = makeClient(server, "openai", { model: { timeout_seconds: 0.3, max_retries: 0 } });
    await expect(client.complete(req())).rejects.toMatchObject({
      kind: "transient",
      message: "openai: timed out after 0.3s",
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.stats()).toMatchObject({ aborted: 1, inFlight: 0 });
  });

  it("respects the concurrency limit", async () => {
    const server = await mock({ latency: { fixedMs: 40 } });
    const { client } = makeClient(server, "openai", { model: { max_concurrency: 3 } });
    await Promise.all(Array.from({ length: 12 }, () => client.complete(req())));
    expect(server.stats().maxInFlight).toBe(3);
    expect(client.stats!().total.calls).toBe(12);
  });

  it("pauses the run when the budget is spent, without calling the provider", async () => {
    const server = await mock();
    const { client } = makeClient(server, "openai", { budget: { max_calls: 2 } });
    await client.complete(req());
    await client.complete(req());
    const err = await client.complete(req()).catch((e: unknown) => e);
    expect(stopRunOf(err)).toBe("pause");
    expect((err as Error).message).toBe("budget exhausted: 2 of 2 calls");
    expect(server.stats().requests).toBe(2);
  });

  it("answers a second identical call from the cache and reports the cost saved", async () => {
    const server = await mock();
    const { client } = makeClient(server, "azure-openai", { model: { cache: true } });
    const first = await client.complete(req());
    const second = await client.complete(req());
    expect(second).toMatchObject({ text: first.text, cached: true });
    expect(server.stats().requests).toBe(1);
    const s = client.stats!().byStage.rollout!;
    expect(s).toMatchObject({ calls: 2, cacheHits: 1 });
    expect(s.costSavedUsd).toBeCloseTo(s.costUsd!, 12);
  });
});
