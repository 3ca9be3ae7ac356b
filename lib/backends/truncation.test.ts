/**
 * Every backend reports an answer cut off by the token limit — Chat Completions `finish_reason: length`
 * (openai, azure-openai, openai-compatible), the Responses API's `incomplete_details.reason:
 * max_output_tokens`, Anthropic's `stop_reason: max_tokens`, and the sim — through the real SDKs
 * against the mock LLM server, including answers served from the response cache.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RunConfigSchema, type RunConfigInput } from "../contracts/run-config";
import type { CompletionRequest } from "../engine/ports";
import { targetPrompt, useMockServer, mockModelSettings as modelFor } from "../mock-llm/testing";
import type { MockLlmServer } from "../mock-llm/types";
import { RunPolicy } from "./policy/run-policy";
import { createModelClient } from "./registry";

const ENV = { OPENAI_API_KEY: "k", AZURE_OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k", OPENAI_COMPATIBLE_API_KEY: "k" };
const prompt = targetPrompt(true);
const req = (maxTokens = 256): CompletionRequest => ({
  role: "target",
  stage: "rollout",
  system: prompt.system,
  messages: [{ role: "user", content: prompt.user }],
  maxTokens,
});

function client(
  server: MockLlmServer,
  backend: string,
  extra: RunConfigInput & { model?: Record<string, unknown> } = {},
) {
  const config = RunConfigSchema.parse({
    ...extra,
    model: { max_retries: 0, ...modelFor(backend, server.url), ...extra.model },
  });
  const run = new RunPolicy(config, { rootDir: mkdtempSync(join(tmpdir(), "truncation-")) });
  return createModelClient("target", config, { simKnowledge: null, env: ENV, run });
}

const BACKENDS = ["openai", "openai-responses", "azure-openai", "anthropic", "openai-compatible"];

describe("truncation is reported by every backend", () => {
  const mock = useMockServer();

  it.each(BACKENDS)("%s: an answer cut off by the limit is truncated; a whole one is not", async (backend) => {
    const server = await mock({ faults: { truncatedRate: 1 } });
    const cut = await client(server, backend).complete(req());
    expect(cut.truncated).toBe(true);
    expect(cut.text.length).toBeGreaterThan(0);
    server.setFaults({});
    const whole = await client(server, backend).complete(req());
    expect(whole.truncated).toBe(false);
    expect(whole.text.length).toBeGreaterThan(cut.text.length);
  });

  it.each(["openai", "anthropic"])(
    "%s: a limit too small for the answer is truncated, and twice the limit is enough",
    async (backend) => {
      const server = await mock();
      const c = client(server, backend);
      const full = await c.complete(req());
      const needs = Math.ceil(full.text.length / 4);
      expect((await c.complete(req(needs - 2))).truncated).toBe(true);
      expect((await c.complete(req(2 * (needs - 2)))).truncated).toBe(false);
    },
  );

  it("a truncated answer served from the cache is still truncated", async () => {
    const server = await mock({ faults: { truncatedRate: 1 } });
    const c = client(server, "openai", { model: { cache: true } });
    const first = await c.complete(req());
    const second = await c.complete(req());
    expect(second).toMatchObject({ cached: true, truncated: true, text: first.text });
    expect(server.stats().requests).toBe(1);
  });

  it("the simulated target truncates at model.sim_truncate_rate, per prompt and limit", async () => {
    const config = (rate: number) => RunConfigSchema.parse({ model: { backend: "sim", sim_truncate_rate: rate } });
    const sim = (rate: number) => createModelClient("target", config(rate), { simKnowledge: null });
    expect((await sim(1).complete(req())).truncated).toBe(true);
    expect((await sim(0).complete(req())).truncated).toBe(false);
    const half = sim(0.5);
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => half.complete(req(100 + i))));
    const cut = outcomes.filter((o) => o.truncated).length;
    expect(cut).toBeGreaterThan(5);
    expect(cut).toBeLessThan(35);
    // The same prompt and limit always give the same outcome.
    expect((await half.complete(req(100))).truncated).toBe(outcomes[0]!.truncated);
  });
});
