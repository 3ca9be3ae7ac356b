/**
 * The shared rate limit is per endpoint and API key on every HTTP backend: two keys on one endpoint
 * have their own allowances, one key shares its allowance between clients, and the key itself never
 * reaches the limiter's counters (only a hash of it does).
 */
import { describe, expect, it } from "vitest";
import { createAnthropicProvider } from "./anthropic";
import { createAzureOpenAIProvider } from "./azure-openai";
import { createOpenAIProvider } from "./openai";
import { createCompatibleProvider } from "./openai-compatible";
import { keyIdOf } from "./policy/rate-limit";
import { RunPolicy } from "./policy/run-policy";
import type { ProviderArgs, ProviderFactory } from "./provider";
import { createModelClient } from "./registry";
import type { EnvVars } from "./settings";
import { chatReply, config, useStub } from "./test-helpers";

const BASE = "http://127.0.0.1:9/v1";

/** Each backend with the environment that gives it `key` at one fixed endpoint. */
const CASES: Array<{ name: string; factory: ProviderFactory; env: (key: string) => EnvVars }> = [
  { name: "openai", factory: createOpenAIProvider, env: (k) => ({ OPENAI_API_KEY: k, OPENAI_BASE_URL: BASE }) },
  {
    name: "anthropic",
    factory: createAnthropicProvider,
    env: (k) => ({ ANTHROPIC_API_KEY: k, ANTHROPIC_BASE_URL: "http://127.0.0.1:9" }),
  },
  {
    name: "azure-openai",
    factory: createAzureOpenAIProvider,
    env: (k) => ({ AZURE_OPENAI_API_KEY: k, AZURE_OPENAI_ENDPOINT: "http://127.0.0.1:9" }),
  },
  {
    name: "openai-compatible",
    factory: createCompatibleProvider,
    env: (k) => ({ OPENAI_COMPATIBLE_API_KEY: k, OPENAI_COMPATIBLE_BASE_URL: BASE }),
  },
];

function setupOf(factory: ProviderFactory, env: EnvVars, backend: string) {
  const cfg = config({ model: { backend } });
  const args: ProviderArgs = {
    role: "target",
    config: cfg,
    env,
    model: "m1",
    transport: new RunPolicy(cfg).transport,
    rawBackend: backend,
  };
  return factory(args);
}

describe("rate-limit keys per backend", () => {
  for (const c of CASES) {
    it(`${c.name}: keyed by endpoint and a hash of the key`, () => {
      const a = setupOf(c.factory, c.env("sk-first-secret"), c.name);
      const b = setupOf(c.factory, c.env("sk-second-secret"), c.name);
      expect(a.endpoint).toBe(b.endpoint);
      expect(a.keyId).toBe(keyIdOf("sk-first-secret"));
      expect(b.keyId).toBe(keyIdOf("sk-second-secret"));
      expect(a.keyId).not.toBe(b.keyId);
      expect(a.keyId).not.toContain("secret");
    });
  }

  it("azure-openai with an Entra ID token is keyed by a hash of the token", () => {
    const env = { AZURE_OPENAI_AD_TOKEN: "token-xyz", AZURE_OPENAI_ENDPOINT: "http://127.0.0.1:9" };
    expect(setupOf(createAzureOpenAIProvider, env, "azure-openai").keyId).toBe(keyIdOf("token-xyz"));
  });

  it("openai-compatible without a key (a local server) shares one 'nokey' limit per endpoint", () => {
    const env = { OPENAI_COMPATIBLE_BASE_URL: BASE };
    expect(setupOf(createCompatibleProvider, env, "openai-compatible").keyId).toBe("nokey");
  });
});

class WouldWait extends Error {
  constructor(readonly ms: number) {
    super(`the rate limit would wait ${ms} ms`);
  }
}

describe("rate-limit keys in the policy client", () => {
  const stub = useStub();

  /** A client whose limiter refuses to wait: a call that would wait fails with WouldWait instead. */
  function clientWith(url: string, key: string) {
    const cfg = config({
      model: { backend: "openai-compatible", target: "m1", rate_limit_rpm: 12, max_retries: 0 },
    });
    const run = new RunPolicy(cfg, {
      retry: {
        sleep: async (ms: number) => {
          throw new WouldWait(ms);
        },
        random: () => 0.5,
      },
    });
    const env = { OPENAI_COMPATIBLE_API_KEY: key, OPENAI_COMPATIBLE_BASE_URL: `${url}/v1` };
    return createModelClient("target", cfg, { simKnowledge: null, env, run });
  }

  const ask = (c: ReturnType<typeof clientWith>) =>
    c.complete({
      role: "target",
      stage: "rollout",
      system: "s",
      messages: [{ role: "user", content: "q" }],
      maxTokens: 64,
    });

  it("two keys on one endpoint have separate allowances; one key shares its allowance", async () => {
    // 12 requests/min = 1 request per 5-second window.
    const s = await stub(() => chatReply("ok"));
    await expect(ask(clientWith(s.url, "key-a"))).resolves.toMatchObject({ text: "ok" });
    await expect(ask(clientWith(s.url, "key-b"))).resolves.toMatchObject({ text: "ok" });
    await expect(ask(clientWith(s.url, "key-a"))).rejects.toThrow(/rate limit would wait/);
    expect(s.seen).toHaveLength(2);
  });
});
